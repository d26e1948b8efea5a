// Findings on the lines of the diff, end to end with the real bundle: one review per
// round with inline comments (one with a suggestion block), the fixed finding's thread answered
// and resolved after the push, the rejected one left open with the reason, no duplicate thread in
// round 2, the round-1 reports minimized, the label added and the draft marked ready; a human's
// thread, even one that forges our marks, is never touched.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { renderInlineComment } from '../../src/report/inline-comment.js';
import { normalizeFinding } from '../../src/review/findings.js';
import { createWorld, type World } from './harness.js';
import { BUG_FINDING, FIXED_MATH, finding, reviewerAnswer } from './scenarios.js';

const BOT = 'github-actions[bot]';
const BUG = { ...BUG_FINDING, replacement: '  return a + b;' };
const STYLE = finding({
  priority: 'P3',
  category: 'docs',
  line: 1,
  title: 'add() has no JSDoc',
  description: 'Say what it returns.',
});
const ELSEWHERE = finding({ priority: 'P2', file: 'src/other.js', line: 3, title: 'other.js ignores errors' });
const REASON = 'The module is internal; its callers are documented instead.';

let world: World;
beforeEach(async () => {
  world = await createWorld({ pull: { draft: true } });
});
afterEach(async () => {
  await world.close();
});

const rules = [
  { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG, STYLE, ELSEWHERE]) },
  { role: 'reviewer', answer: reviewerAnswer([STYLE]) },
  {
    role: 'fixer',
    fixAll: true,
    edits: { 'src/math.js': FIXED_MATH },
    rejectTitles: { JSDoc: REASON, 'other.js': 'Not in this PR.' },
  },
];

it('posts the inline review, answers and resolves the fixed thread, and hands the converged PR over', async () => {
  // An outsider's thread on the same line, forging our marker and the bug's mark.
  const forged = renderInlineComment(normalizeFinding({ ...BUG_FINDING, priority: 'P1' }, 'reviewer-1'), 1);
  const human = world.github.state.addThread(7, {
    path: 'src/math.js',
    line: 2,
    comments: [{ body: forged, author: 'mallory' }],
  });

  const r = await world.run({
    inputs: { verify: 'npm test', 'converged-label': 'ready for humans', 'ready-when-converged': 'true' },
    rules,
  });
  expect(r.outputs.status, r.stdout).toBe('converged');
  expect(r.outputs.rounds).toBe('2');

  // One review, round 1's, as a comment: never an approval or a request for changes.
  const reviews = world.github.state.reviews(7).filter((x) => x.user.login === BOT);
  expect(reviews.map((x) => x.state)).toEqual(['COMMENTED']);
  const ours = world.github.state.threads(7).filter((t) => t.comments[0]!.author === BOT);
  expect(ours.map((t) => [t.path, t.line])).toEqual([
    ['src/math.js', 2],
    ['src/math.js', 1],
  ]);
  const [bug, style] = ours;
  // The bug: priority, title, agreement, the suggestion block; fixed, answered and resolved.
  expect(bug!.comments[0]!.body).toContain('P1 · critical · 1/1 reviewer');
  expect(bug!.comments[0]!.body).toContain(BUG_FINDING.title);
  expect(bug!.comments[0]!.body).toContain('```suggestion\n  return a + b;\n```');
  const fixSha = (await world.headLog())[0]!.sha;
  expect(bug!.comments[1]!.body).toContain(`Fixed in [\`${fixSha.slice(0, 7)}\`]`);
  expect(bug!.isResolved).toBe(true);
  expect(bug!.resolvedBy).toBe(BOT);
  // The rejected one: the fixer's reason, still open, and not posted again in round 2.
  expect(style!.comments.map((c) => c.author)).toEqual([BOT, BOT]);
  expect(style!.comments[1]!.body).toContain(`Not fixed: the fixer rejected it. Its reason: ${REASON}`);
  expect(style!.isResolved).toBe(false);
  // The finding outside the diff is in the report only.
  expect(world.github.state.threads(7).some((t) => t.path === 'src/other.js')).toBe(false);
  const bodies = world.github.comments(7).map((c) => c.body);
  expect(bodies[0]).toContain(ELSEWHERE.title);
  // Round 2's report links the finding to its open thread.
  expect(bodies.at(-1)).toContain(`#discussion_r${style!.comments[0]!.databaseId}`);

  // The human's thread is untouched.
  expect(human.comments).toHaveLength(1);
  expect(human.isResolved).toBe(false);

  // Round 1's reports are minimized as outdated, the last one is not; nothing was edited or deleted.
  const comments = world.github.comments(7);
  expect(comments.map((c) => c.minimizedReason ?? null)).toEqual(['outdated', 'outdated', null]);
  expect(world.github.writes().filter((w) => w.method === 'PATCH' || w.method === 'DELETE')).toEqual([]);

  // Handed over: the label, and the draft is ready for review.
  const pull = world.github.state.requirePull(7);
  expect(pull.labels).toEqual(['ready for humans']);
  expect(pull.draft).toBe(false);
});

it('posts no review with inline-comments: false, and hides nothing with hide-outdated-reports: false', async () => {
  const r = await world.run({
    inputs: { verify: 'npm test', 'inline-comments': 'false', 'hide-outdated-reports': 'false' },
    rules,
  });
  expect(r.outputs.status, r.stdout).toBe('converged');
  expect(world.github.state.reviews(7)).toEqual([]);
  expect(world.github.state.threads(7)).toEqual([]);
  expect(world.github.comments(7).map((c) => c.minimizedReason ?? null)).toEqual([null, null, null]);
  expect(world.github.state.requirePull(7).draft).toBe(true);
});

it('goes on with the report comments when the token may not write pull requests (issues: write only)', async () => {
  await world.close();
  world = await createWorld({ pull: { draft: true }, github: { tokenPermissions: { pull_requests: 'read' } } });
  const r = await world.run({ inputs: { verify: 'npm test', 'converged-label': 'ready for humans' }, rules });
  expect(r.outputs.status, r.stdout).toBe('converged');
  // The review was refused once; no thread, and no further try.
  expect(world.github.state.threads(7)).toEqual([]);
  expect(
    world.github
      .writes()
      .filter((w) => w.path.endsWith('/reviews'))
      .map((w) => w.status),
  ).toEqual([403]);
  expect(r.stdout).toContain('could not post the inline review');
  expect(r.stdout).toContain('pull-requests: write');
  // Every report was posted (issues: write lets a token comment on a PR).
  expect(world.github.comments(7)).toHaveLength(3);
  // Labelling a PR needs pull-requests: write too: a warning, and the run's outcome stands.
  expect(world.github.state.requirePull(7).labels).toEqual([]);
  expect(r.stdout).toContain('could not add the label "ready for humans"');
});

it('tells the thread of a fixed finding that came back that it needs a human', async () => {
  const r = await world.run({
    inputs: { verify: 'npm test' },
    rules: [
      { role: 'reviewer', answer: reviewerAnswer([BUG]) },
      { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } },
    ],
  });
  expect(r.outputs.stuck, r.stdout).toBe('1');
  const [bug] = world.github.state.threads(7);
  // Each comment's first visible line (our hidden marks come first).
  expect(bug!.comments.map((c) => c.body.split('\n').find((l) => !l.startsWith('<!--')))).toEqual([
    `**${BUG_FINDING.title}**`,
    expect.stringMatching(/^Fixed in /),
    'This came back after a fix in an earlier round. The loop will not try again: it needs a human.',
  ]);
  // One review: round 2 posts no new thread for the finding that came back.
  expect(world.github.state.reviews(7)).toHaveLength(1);
});

it('keeps quiet: only findings at or above inline-min-priority, most severe first up to inline-max-comments', async () => {
  const exports = finding({ priority: 'P2', category: 'quality', line: 5, title: 'module.exports leaks internals' });
  const r = await world.run({
    inputs: { mode: 'review', 'inline-min-priority': 'P2', 'inline-max-comments': '1' },
    rules: [{ role: 'reviewer', answer: reviewerAnswer([STYLE, exports, BUG]) }],
  });
  expect(r.outputs.status, r.stdout).toBe('review-only');
  // One comment: the P1 bug (the P2 is past the cap, the P3 below the priority).
  const ours = world.github.state.threads(7).filter((t) => t.comments[0]!.author === BOT);
  expect(ours.map((t) => [t.path, t.line])).toEqual([['src/math.js', 2]]);
  expect(ours[0]!.comments[0]!.body).toContain(BUG_FINDING.title);
  // The report keeps every finding and says what the inline review left out, and why.
  const report = world.github.comments(7)[0]!.body;
  for (const f of [STYLE, exports, BUG]) expect(report).toContain(f.title);
  expect(report).toContain(
    'Quiet mode: 2 finding(s) on the lines of the diff are in this report only ' +
      '(1 below `inline-min-priority`, 1 past `inline-max-comments`).',
  );
});
