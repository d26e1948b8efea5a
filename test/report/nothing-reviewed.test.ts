// The first line of a run that reviewed nothing (src/report/nothing-reviewed.ts): for a fork PR it
// links the fork-review workflow in the action's own docs at the ref the step runs, and a CLI's
// words in it cannot ping anyone or pose as markdown.
import { expect, it } from 'vitest';
import { nothingReviewed } from '../../src/report/nothing-reviewed.js';

const WHY = 'No reviewer has a key: ANTHROPIC_API_KEY is set but empty.';

it("links the fork workflow in the action's docs at the action's ref", () => {
  const env = { GITHUB_ACTION_REPOSITORY: 'org/pr-review-loop', GITHUB_ACTION_REF: 'v1' };
  const { line, log } = nothingReviewed({ why: WHY, forkPullRequest: true }, env);
  const url = 'https://github.com/org/pr-review-loop/blob/v1/docs/tokens-and-forks.md#reviewing-fork-prs-with-keys';
  expect(line).toBe(
    `**pr-review-loop reviewed nothing:** ${WHY} GitHub withholds secrets from \`pull_request\` runs for pull ` +
      `requests from forks: review them with the \`pull_request_target\` workflow in ` +
      `[docs/tokens-and-forks.md of pr-review-loop](${url}), or skip them with \`if:\` as the Quick start does.`,
  );
  expect(line).not.toContain('\n');
  expect(log).toContain(url);
});

it('names the page without a link where the step runs no action from a repository (uses: ./)', () => {
  const { line } = nothingReviewed({ why: WHY, forkPullRequest: true }, { GITHUB_ACTION_REPOSITORY: '' });
  expect(line).toContain('`docs/tokens-and-forks.md of pr-review-loop`');
});

it('asks for the secret on a PR of the repository, and keeps a CLI quoted in the reason inert', () => {
  const why = 'No reviewer could authenticate (reviewer-1: @octocat ![x](http://e.test/x.png)).';
  const { line } = nothingReviewed({ why, forkPullRequest: false }, {});
  expect(line).toContain("Set each reviewer's key as a secret of the repository");
  expect(line).not.toContain('pull_request_target');
  expect(line).not.toContain(' @octocat');
  expect(line).not.toContain('![x]');
});
