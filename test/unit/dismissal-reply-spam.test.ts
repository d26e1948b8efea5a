// A refused dismissal is answered once, also in a thread of more than 50 comments: the threads query
// reads a thread's first comments (whose thread it is) and its latest (what the action said last).
// Reading only the first 50, the action never saw its own answer and posted one more every round:
// anyone can reply in a thread of a public repository. Found by a red-team review; fails before.
import { afterEach, expect, it } from 'vitest';
import { renderInlineComment } from '../../src/report/inline-comment.js';
import { dismissalTracker } from '../../src/review/dismissals.js';
import type { FakeGitHub } from '../fakes/github/index.js';
import { finding, reviewRecord, shopAgent } from '../factories.js';
import { BOT, inlineWorld } from './inline-world.js';

const STYLE = finding({ id: 'DOCS-00c0ffee', priority: 'P3', category: 'docs', line: 1, title: 'add() has no JSDoc' });

let fake: FakeGitHub;
afterEach(() => fake?.close());

it('answers a refused dismissal once, even in a thread of 50 comments', async () => {
  const junk = Array.from({ length: 48 }, (_, i) => ({ author: 'mallory', body: `+1 (${i})` }));
  const world = await inlineWorld({
    pull: {
      headRef: 'feature/x',
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
  });
  ({ fake } = world);
  const { inline } = world;
  const tracker = dismissalTracker({
    ownLogin: BOT,
    cached: [],
    mayDismiss: async (l) => ({ ok: false, why: `${l} has no access to the repository` }),
    log: () => undefined,
  });
  for (let round = 1; round <= 3; round++) {
    const ctx = await world.context();
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
