// The answer limits: one answer per thread per run, at most 5 threads a run, 3 answers per thread
// and 10 per PR over the last hour, counted from the action's answers as GitHub holds them.
import { expect, it } from 'vitest';
import { MARKER } from '../../src/domain/marker.js';
import type { ReviewThread, ThreadComment } from '../../src/domain/pull-request.js';
import { ANSWER_LIMITS, recentAnswers, threadsWithinLimits } from '../../src/review/answer-limits.js';
import { renderInlineComment } from '../../src/report/inline-comment.js';
import { normalizeFinding } from '../../src/review/findings.js';
import { answerMark } from '../../src/review/thread-replies.js';
import { BUG_FINDING } from '../e2e/scenarios.js';

const OWN = 'github-actions[bot]';
const NOW = Date.parse('2026-11-28T12:00:00Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();
let ids = 100;
const comment = (author: string, body: string, createdAt = minutesAgo(120)): ThreadComment => ({
  id: `C${++ids}`,
  databaseId: ids,
  body,
  author,
  authorAssociation: 'NONE',
  path: 'src/math.js',
  line: 2,
  createdAt,
});
const first = () =>
  comment(OWN, renderInlineComment(normalizeFinding({ ...BUG_FINDING, priority: 'P1' }, 'reviewer-1'), 1));
const answer = (at: number) => comment(OWN, `An answer.\n\n${MARKER}\n${answerMark(1)}`, minutesAgo(at));
const thread = (id: string, ...rest: ThreadComment[]): ReviewThread => ({
  id,
  isResolved: false,
  isOutdated: false,
  path: 'src/math.js',
  line: 2,
  comments: [first(), ...rest],
});

it('counts only its own answers of the last hour, in its own threads', () => {
  const threads = [
    thread('T1', answer(10), answer(50), answer(70), comment('octocat', 'Why?', minutesAgo(5))),
    thread('T2', comment(OWN, `Fixed in abc.\n\n${MARKER}`, minutesAgo(5))), // a note, not an answer
    // Someone else's thread with a pasted answer mark: not ours, never counted.
    { ...thread('T3'), comments: [comment('mallory', `${MARKER}\n${answerMark(9)}`, minutesAgo(1))] },
  ];
  const recent = recentAnswers(threads, OWN, NOW);
  expect(recent.total).toBe(2);
  expect([...recent.byThread]).toEqual([['T1', 2]]);
});

it('answers every waiting thread within the limits, and says why the others wait', () => {
  const none = { total: 0, byThread: new Map<string, number>() };
  expect(threadsWithinLimits(['A', 'B'], none)).toEqual({ answer: ['A', 'B'], held: null });

  const seven = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
  const perRun = threadsWithinLimits(seven, none);
  expect(perRun.answer).toEqual(seven.slice(0, ANSWER_LIMITS.perRun));
  expect(perRun.held).toMatch(/answering 5 now \(5 a run at most\); 2 wait/);

  const full = threadsWithinLimits(['A', 'B'], { total: 3, byThread: new Map([['A', 3]]) });
  expect(full.answer).toEqual(['B']);
  expect(full.held).toMatch(/answering 1 now \(1 had 3 answers in the last hour, a thread's most\); 1 wait/);

  const nearlyFull = threadsWithinLimits(['A', 'B', 'C'], { total: 8, byThread: new Map([['X', 2]]) });
  expect(nearlyFull.answer).toEqual(['A', 'B']);
  expect(nearlyFull.held).toMatch(/answering 2 now \(the PR's last 2 of 10 an hour\); 1 wait/);

  const spent = threadsWithinLimits(['A'], { total: 10, byThread: new Map([['X', 3]]) });
  expect(spent.answer).toEqual([]);
  expect(spent.held).toMatch(/answering 0 now \(the PR had 10 in the last hour, its most\); 1 wait for a later run/);
});
