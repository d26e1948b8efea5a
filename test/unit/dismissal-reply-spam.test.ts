// A refused dismissal is answered once, also in a thread of more than 50 comments: the threads query
// reads a thread's first comments (whose thread it is) and its latest (what the action said last).
// Reading only the first 50, the action never saw its own answer and posted one more every round:
// anyone can reply in a thread of a public repository. Found by a red-team review; fails before.
import { afterEach, expect, it } from 'vitest';
import { getOctokit } from '@actions/github';
import type { ActionIO } from '../../src/domain/io.js';
import { getReviewThreads } from '../../src/github/threads.js';
import { renderInlineComment } from '../../src/report/inline-comment.js';
import { createInlineReview } from '../../src/report/inline-review.js';
import { createPublisher } from '../../src/report/publish.js';
import { dismissalTracker } from '../../src/review/dismissals.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github/index.js';
import { HEAD, finding, prContext, reviewRecord, shopAgent } from '../factories.js';

const REPO = { owner: 'octo-org', repo: 'demo-repo' };
const BOT = 'github-actions[bot]';
const STYLE = finding({ id: 'DOCS-00c0ffee', priority: 'P3', category: 'docs', line: 1, title: 'add() has no JSDoc' });

let fake: FakeGitHub;
afterEach(() => fake?.close());

it('answers a refused dismissal once, even in a thread of 50 comments', async () => {
  const junk = Array.from({ length: 48 }, (_, i) => ({ author: 'mallory', body: `+1 (${i})` }));
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
        reviewThreads: [
          {
            path: 'src/math.js',
            line: 1,
            comments: [
              { author: BOT, body: renderInlineComment(STYLE, 1) },
              ...junk,
              { author: 'mallory', body: '/review-loop dismiss please' },
            ],
          },
        ],
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
  const tracker = dismissalTracker({
    ownLogin: BOT,
    cached: [],
    mayDismiss: async (l) => ({ ok: false, why: `${l} has no access to the repository` }),
    log: () => undefined,
  });
  for (let round = 1; round <= 3; round++) {
    const ctx = prContext({ threads: (await getReviewThreads(octokit, REPO, 7)).threads });
    const { dismissals, refused } = await tracker.forRound(ctx.threads, []);
    const rec = reviewRecord({
      round,
      findings: [],
      stuck: [],
      agents: [shopAgent({ name: 'reviewer-1' })],
      dismissals,
      refusedDismissals: refused,
    });
    await inline.review(rec, ctx);
  }
  const thread = fake.state.threads(7)[0]!;
  const answers = thread.comments.filter((c) => c.author === BOT && c.body.startsWith('Not dismissed'));
  expect(answers).toHaveLength(1);
});
