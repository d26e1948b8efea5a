// Dismissals that stick, end to end with the real bundle: a person with write access dismisses
// a finding by replying `/review-loop dismiss <reason>` in its thread, or by resolving the thread;
// from the next run on the finding is not posted, fixed, counted or blocking, also when another
// reviewer words it differently, and also when its thread is out of the action's reach (the hidden
// state remembers). A request by someone without write access is refused, and both are answered.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { decodeState } from '../../src/report/state.js';
import { createWorld, OWNER, type World } from './harness.js';
import { BUG_FINDING, finding, reviewerAnswer, STYLE_FINDING } from './scenarios.js';

const BOT = 'github-actions[bot]';
const STYLE = STYLE_FINDING;
/** The same problem in another reviewer's words, at the same line. */
const STYLE_REWORDED = finding({
  priority: 'P2',
  category: 'docs',
  line: 1,
  title: 'Missing documentation comment',
  description: 'The exported `add` function lacks a JSDoc block describing what it returns.',
  suggestion: '',
});
const REASON = 'We document the callers, not internal helpers.';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

const ourThreads = () => world.github.state.threads(7).filter((t) => t.comments[0]!.author === BOT);
const threadAt = (line: number) => ourThreads().find((t) => t.line === line)!;
const human = (login: string) => ({ login, type: 'User' as const });
const lastState = () => decodeState(world.github.comments(7).at(-1)!.body)!;

it('keeps a finding dismissed by command out of later runs, reworded or out of reach, and refuses an outsider', async () => {
  const first = await world.run({
    rules: [{ role: 'reviewer', answer: reviewerAnswer([BUG_FINDING, STYLE]) }],
    inputs: { mode: 'review', 'fail-on': 'none' },
  });
  expect(first.outputs.status, first.stdout).toBe('review-only');
  expect(ourThreads()).toHaveLength(2);
  world.github.state.addReply(threadAt(1), human(OWNER), `/review-loop dismiss ${REASON}`);
  world.github.state.addReply(threadAt(2), human('mallory'), '/review-loop dismiss it is fine');

  // The next push: one reviewer repeats the bug and words the dismissed finding its own way.
  await world.sandbox.pushFromAnotherClone({ 'CHANGELOG.md': 'A human note.\n' }, { message: 'Add a changelog' });
  const second = await world.run({
    rules: [{ role: 'reviewer', answer: reviewerAnswer([BUG_FINDING, STYLE_REWORDED]) }],
    inputs: { mode: 'review', 'fail-on': 'none' },
    action: 'synchronize',
  });
  expect(second.outputs.status, second.stdout).toBe('review-only');
  const report = world.github.comments(7).at(-1)!.body;
  const [findings, rest] = report.split('### 🙅 Dismissed findings');
  expect(findings).toContain(BUG_FINDING.title);
  expect(findings).not.toContain(STYLE_REWORDED.title);
  expect(rest).toContain(`${STYLE_REWORDED.title}`);
  expect(rest).toContain(`${OWNER} replied`);
  expect(rest).toContain(REASON);
  // The outsider's request is refused, and the bug stays.
  expect(rest).toMatch(/Requests to dismiss that were refused[\s\S]*mallory has no access to the repository/);
  expect(lastState().counts).toEqual({ p0: 0, p1: 1, p2: 0, p3: 0 });
  expect(lastState().dismissed?.map((d) => [d.by, d.reason, d.via])).toEqual([[OWNER, REASON, 'command']]);
  // The reviewer was told, with the reason; no new thread for the reworded finding.
  const prompt = world
    .agentCalls()
    .filter((c) => c.role === 'reviewer')
    .at(-1)!.prompt;
  expect(prompt).toContain('Findings people dismissed');
  expect(prompt).toContain(REASON);
  expect(ourThreads()).toHaveLength(2);
  // Each thread is answered once: the dismissed one resolved, the refused one left open.
  const style = threadAt(1);
  expect(style.comments.at(-1)!.body).toContain(`Dismissed by ${OWNER} (${REASON})`);
  expect([style.isResolved, style.resolvedBy]).toEqual([true, BOT]);
  const bug = threadAt(2);
  expect(bug.comments.at(-1)!.body).toContain('Not dismissed: mallory has no access to the repository');
  expect(bug.isResolved).toBe(false);

  // The thread goes out of reach (as past the pages the action reads): the hidden state remembers.
  // With only the dismissed finding left, a fixing run converges without a fixer, and fail-on passes.
  world.github.state.threadList.splice(world.github.state.threadList.indexOf(style), 1);
  await world.sandbox.pushFromAnotherClone({ 'CHANGELOG.md': 'Another note.\n' }, { message: 'More notes' });
  const calls = world.agentCalls().length;
  const third = await world.run({
    rules: [{ role: 'reviewer', answer: reviewerAnswer([STYLE_REWORDED]) }],
    inputs: { 'fail-on': 'P2' },
    action: 'synchronize',
  });
  expect(third.outputs.status, third.stdout).toBe('converged');
  expect(third.code).toBe(0);
  expect(
    world
      .agentCalls()
      .slice(calls)
      .map((c) => c.role),
  ).toEqual(['reviewer']);
  expect(lastState().dismissed?.map((d) => d.reason)).toEqual([REASON]);
});

it('takes a resolved thread as a dismissal only from someone with write access', async () => {
  const first = await world.run({
    rules: [{ role: 'reviewer', answer: reviewerAnswer([BUG_FINDING, STYLE]) }],
    inputs: { mode: 'review', 'fail-on': 'none' },
  });
  expect(first.outputs.status, first.stdout).toBe('review-only');
  // A maintainer resolves the style thread; the PR's author, who cannot write, resolves the bug's.
  world.github.state.resolveThread(threadAt(1).id, true, OWNER);
  world.github.state.resolveThread(threadAt(2).id, true, 'octocat');

  await world.sandbox.pushFromAnotherClone({ 'CHANGELOG.md': 'A human note.\n' }, { message: 'Add a changelog' });
  const second = await world.run({
    rules: [{ role: 'reviewer', answer: reviewerAnswer([BUG_FINDING, STYLE]) }],
    inputs: { mode: 'review', 'fail-on': 'none' },
    action: 'synchronize',
  });
  expect(second.outputs.status, second.stdout).toBe('review-only');
  const report = world.github.comments(7).at(-1)!.body;
  expect(report).toMatch(
    new RegExp(
      `Dismissed findings[\\s\\S]*${STYLE.title.replace(/[()]/g, '\\$&')}[^\\n]*` + `${OWNER} resolved its thread`,
    ),
  );
  expect(report).toMatch(/refused[\s\S]*octocat resolved its thread · refused: octocat has no access/);
  expect(lastState().counts).toEqual({ p0: 0, p1: 1, p2: 0, p3: 0 });
  expect(threadAt(2).comments.at(-1)!.body).toContain('Not dismissed: octocat has no access to the repository');
});
