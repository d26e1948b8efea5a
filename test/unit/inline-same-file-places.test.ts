// A finding with two places in one file gets a comment on each, and after its fix both threads are
// answered and resolved (every place's mark names the same id and file: both are its threads).
// Found by a red-team review; one thread stayed open before the fix.
import { afterEach, expect, it } from 'vitest';
import { getOctokit } from '@actions/github';
import type { ActionIO } from '../../src/domain/io.js';
import { getReviewThreads } from '../../src/github/threads.js';
import { createInlineReview } from '../../src/report/inline-review.js';
import { createPublisher } from '../../src/report/publish.js';
import { fingerprint } from '../../src/review/stuck.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github/index.js';
import { HEAD, finding, fixRecord, prContext, reviewRecord, shopAgent } from '../factories.js';

const REPO = { owner: 'octo-org', repo: 'demo-repo' };
const BOT = 'github-actions[bot]';
const FIX_SHA = '9c1185a5c5e9fc54612808977ee8f548b2258d31';

let fake: FakeGitHub;
afterEach(() => fake?.close());

it('resolves the thread at every place of a fixed finding, two places in one file included', async () => {
  fake = await startFakeGitHub({
    ...REPO,
    pulls: [
      {
        number: 7,
        title: 'T',
        user: 'alice',
        headRef: 'feature/x',
        headSha: HEAD,
        diff: prContext().diff,
        files: [{ filename: 'src/math.js', status: 'modified', additions: 1, deletions: 1 }],
      },
    ],
  });
  const octokit = getOctokit('t', { baseUrl: fake.url });
  const io = { warning: () => undefined } as unknown as ActionIO;
  const inline = createInlineReview({
    enabled: true,
    octokit,
    repo: REPO,
    prNumber: 7,
    ownLogin: BOT,
    publisher: createPublisher({ octokit, repo: REPO, prNumber: 7, dryRun: false, secrets: [], io }),
    reportCtx: {
      serverUrl: 'https://github.com',
      ...REPO,
      prNumber: 7,
      runUrl: null,
      maxRounds: 3,
      mode: 'fix' as const,
      dryRun: false,
    },
    redact: (t) => t,
    log: () => undefined,
    warn: () => undefined,
  });
  const twice = finding({
    line: 1,
    title: 'Unchecked input in both helpers',
    locations: [
      { file: 'src/math.js', line: 1, endLine: null, replacement: null },
      { file: 'src/math.js', line: 2, endLine: null, replacement: null },
    ],
  });
  const ctx = prContext({ threads: (await getReviewThreads(octokit, REPO, 7)).threads });
  await inline.review(reviewRecord({ findings: [twice], stuck: [], agents: [shopAgent({ name: 'reviewer-1' })] }), ctx);
  const ours = () => fake.state.threads(7).filter((t) => t.comments[0]!.author === BOT);
  expect(ours()).toHaveLength(2);
  await inline.afterFix(
    fixRecord({ outcome: 'pushed', commitSha: FIX_SHA, fixed: [{ findingId: twice.id, description: 'fixed' }] }),
    [fingerprint(twice)],
  );
  expect(ours().map((t) => t.isResolved)).toEqual([true, true]);
});
