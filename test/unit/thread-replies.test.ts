// Which replies in the action's threads the answerer answers (review/thread-replies.ts).
import { expect, it } from 'vitest';
import type { ReviewThread } from '../../src/domain/pull-request.js';
import { renderInlineComment } from '../../src/report/inline-comment.js';
import { normalizeFinding } from '../../src/review/findings.js';
import { answerMark, repliesToAnswer } from '../../src/review/thread-replies.js';

const BOT = 'github-actions[bot]';
const BUG = normalizeFinding(
  { priority: 'P1', category: 'bug', file: 'src/math.js', line: 2, title: 'add subtracts', description: 'a - b' },
  'reviewer-1',
);

let nextId = 100;
type Reply = { author: string; body: string; authorIsBot?: boolean };
function thread(replies: Reply[], over: Partial<ReviewThread> = {}, first = 'github-actions'): ReviewThread {
  const comment = (r: Reply) => ({
    id: `C${nextId}`,
    databaseId: nextId++,
    body: r.body,
    author: r.author,
    ...(r.authorIsBot ? { authorIsBot: true } : {}),
    authorAssociation: 'NONE',
    path: BUG.file,
    line: BUG.line,
    createdAt: '2026-11-26T00:00:00Z',
  });
  const comments = [{ author: first, body: renderInlineComment(BUG, 1) }, ...replies].map(comment);
  return {
    id: `T${nextId++}`,
    isResolved: false,
    isOutdated: false,
    path: BUG.file,
    line: BUG.line,
    comments,
    ...over,
  };
}

it('answers a person, never a command, the action itself, a bot, or what was answered already', () => {
  const t = thread([
    { author: 'maintainer', body: 'This is intended because the callers check it.' },
    { author: 'maintainer', body: '/review-loop dismiss intended' },
    { author: 'Maintainer', body: '  /Review-Loop' },
    { author: 'github-actions', body: 'An earlier note of ours.' },
    { author: 'other-app', body: 'Beep.', authorIsBot: true },
    { author: 'renovate[bot]', body: 'Beep too.' },
    { author: 'octocat', body: 'Why is this a problem?' },
    { author: 'octocat', body: 'Answered in an earlier run.' },
  ]);
  const earlier = t.comments.at(-1)!.databaseId!;
  const out = repliesToAnswer([t], BOT, new Set([earlier]));
  expect(out.map((r) => r.reply.body)).toEqual([
    'This is intended because the callers check it.',
    'Why is this a problem?',
  ]);
  expect(out[0]!.finding).toContain('add subtracts');
  expect(out[0]!.finding).not.toContain('<!--');
});

it('takes our answer mark in the thread as answered, and leaves resolved threads and others’ threads alone', () => {
  const open = thread([{ author: 'maintainer', body: 'Are you sure?' }]);
  const replyId = open.comments[1]!.databaseId!;
  open.comments.push({
    ...open.comments[1]!,
    id: 'C-answer',
    databaseId: 1,
    author: 'github-actions',
    body: `Yes.\n\n${answerMark(replyId)}`,
  });
  expect(repliesToAnswer([open], BOT, new Set())).toEqual([]);
  // A mark pasted by someone else proves nothing.
  const forged = thread([
    { author: 'maintainer', body: 'Are you sure?' },
    { author: 'mallory', body: '' },
  ]);
  forged.comments[2]!.body = answerMark(forged.comments[1]!.databaseId!);
  expect(repliesToAnswer([forged], BOT, new Set()).map((r) => r.reply.author)).toEqual(['maintainer', 'mallory']);
  const resolved = thread([{ author: 'maintainer', body: 'Thanks.' }], { isResolved: true });
  const human = thread([{ author: 'maintainer', body: 'Hm.' }], {}, 'mallory');
  expect(repliesToAnswer([resolved, human], BOT, new Set())).toEqual([]);
});
