// PR #7 on the fake GitHub and the inline review of it through a plain Octokit: what the inline
// review tests share. Without the action's pacing of writes a second apart (src/github/client.ts,
// tested in test/contract/graphql-pacing.test.ts): paced, the few writes of each test took seconds.
import { getOctokit } from '@actions/github';
import type { ActionIO } from '../../src/domain/io.js';
import type { Octokit } from '../../src/github/client.js';
import { getReviewThreads } from '../../src/github/threads.js';
import { createInlineReview, type InlineReview, type InlineReviewSetup } from '../../src/report/inline-review.js';
import { createPublisher } from '../../src/report/publish.js';
import { startFakeGitHub, type FakeGitHub, type FakeGitHubOptions } from '../fakes/github/index.js';
import type { FakePullInput } from '../fakes/github/types.js';
import { HEAD, prContext } from '../factories.js';

export const REPO = { owner: 'octo-org', repo: 'demo-repo' };
export const BOT = 'github-actions[bot]';

export interface InlineWorld {
  fake: FakeGitHub;
  octokit: Octokit;
  inline: InlineReview;
  /** The warnings the inline review gave. */
  warnings: string[];
  /** The round's context as the loop reads it: the PR's threads fresh from GitHub. */
  context(): Promise<ReturnType<typeof prContext>>;
}

export async function inlineWorld(
  o: { pull?: Partial<FakePullInput>; github?: Partial<FakeGitHubOptions>; setup?: Partial<InlineReviewSetup> } = {},
): Promise<InlineWorld> {
  const fake = await startFakeGitHub({
    ...REPO,
    pulls: [{ ...plantedPull(), ...o.pull }],
    ...o.github,
  });
  const octokit = getOctokit('t', { baseUrl: fake.url });
  const warnings: string[] = [];
  const io = { warning: (m: string) => warnings.push(m) } as unknown as ActionIO;
  const reportCtx = {
    serverUrl: 'https://github.com',
    ...REPO,
    prNumber: 7,
    runUrl: null,
    maxRounds: 3,
    mode: 'fix' as const,
    dryRun: false,
  };
  const inline = createInlineReview({
    enabled: true,
    octokit,
    repo: REPO,
    prNumber: 7,
    ownLogin: BOT,
    publisher: createPublisher({ octokit, repo: REPO, prNumber: 7, dryRun: false, secrets: [], io }),
    reportCtx,
    redact: (t) => t,
    log: () => undefined,
    warn: (l) => warnings.push(l),
    ...o.setup,
  });
  const context = async () => prContext({ threads: (await getReviewThreads(octokit, REPO, 7)).threads });
  return { fake, octokit, inline, warnings, context };
}

/** PR 7 of the fake GitHub: the planted bug's one-file change, opened by alice. */
export function plantedPull(): FakePullInput {
  return {
    number: 7,
    title: 'T',
    user: 'alice',
    headRef: 'feature/planted-bug',
    headSha: HEAD,
    diff: prContext().diff,
    files: [{ filename: 'src/math.js', status: 'modified', additions: 1, deletions: 1 }],
  };
}
