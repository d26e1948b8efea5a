// A finding with two places in one file gets a comment on each, and after its fix both threads are
// answered and resolved (every place's mark names the same id and file: both are its threads).
// Found by a red-team review; one thread stayed open before the fix. The log says so in one line
// naming both threads: one line per place read as one thread resolved twice.
import { afterEach, expect, it } from 'vitest';
import { fingerprint } from '../../src/review/stuck.js';
import type { FakeGitHub } from '../fakes/github/index.js';
import { finding, fixRecord, reviewRecord, shopAgent } from '../factories.js';
import { BOT, inlineWorld } from './inline-world.js';

const FIX_SHA = '9c1185a5c5e9fc54612808977ee8f548b2258d31';

let fake: FakeGitHub;
afterEach(() => fake?.close());

it('resolves the thread at every place of a fixed finding, two places in one file included', async () => {
  const log: string[] = [];
  const world = await inlineWorld({ pull: { headRef: 'feature/x' }, setup: { log: (line) => log.push(line) } });
  ({ fake } = world);
  const { inline } = world;
  const twice = finding({
    line: 1,
    title: 'Unchecked input in both helpers',
    locations: [
      { file: 'src/math.js', line: 1, endLine: null, replacement: null },
      { file: 'src/math.js', line: 2, endLine: null, replacement: null },
    ],
  });
  const ctx = await world.context();
  await inline.review(reviewRecord({ findings: [twice], stuck: [], agents: [shopAgent({ name: 'reviewer-1' })] }), ctx);
  const ours = () => fake.state.threads(7).filter((t) => t.comments[0]!.author === BOT);
  expect(ours()).toHaveLength(2);
  await inline.afterFix(
    // Checked by a gate on another model: resolved at the push.
    fixRecord({
      outcome: 'pushed',
      commitSha: FIX_SHA,
      fixed: [{ findingId: twice.id, description: 'fixed' }],
      gateApproved: 'codex:gpt-5-codex',
    }),
    [fingerprint(twice)],
  );
  expect(ours().map((t) => t.isResolved)).toEqual([true, true]);
  const resolved = log.filter((l) => l.startsWith('resolved'));
  expect(resolved).toEqual([
    `resolved the 2 threads of ${twice.id} (src/math.js:1, src/math.js:2): fixed in ${FIX_SHA.slice(0, 7)}`,
  ]);
});
