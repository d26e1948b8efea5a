// Which replies in the action's own finding threads it answers (review/thread-answers.ts calls a
// model for each): a person's reply that is not a command and that no answer of ours names yet.
// Never the action's own comments, nor a bot's (an App token's reply answered by the action would
// be answered back: a loop between two bots). Who the person is, is judged by the caller. Pure.
import type { ReviewThread } from '../domain/pull-request.js';
import { findingText } from './dismissals.js';
import { ownThreads, sameLogin, type OwnThread } from './own-threads.js';

/** Any command to the action (`/review-loop`, `/review-loop dismiss …`): commands are acted on, never answered. */
const COMMAND = /^\s*\/review-loop(?=\s|$)/i;
/** The hidden mark of an answer: the REST id of the reply it answers. */
const ANSWER_MARK = /<!-- pr-review-loop-answer: (\d+) -->/g;

/** Whether a comment of the action's is one of its answers (it carries an answer mark). */
export function isAnswer(body: string): boolean {
  return /<!-- pr-review-loop-answer: \d+ -->/.test(body);
}

export function answerMark(replyId: number): string {
  return `<!-- pr-review-loop-answer: ${replyId} -->`;
}

export interface ReplyToAnswer {
  thread: OwnThread;
  /** What our first comment says of the finding, without the hidden marks. */
  finding: string;
  reply: { id: number; author: string; body: string };
}

/**
 * The replies to answer, oldest first per thread: in our open threads, by a person, not a command,
 * not answered already (`answered`: what the hidden state remembers; the marks of our answers in
 * the thread say the same for the comments the thread was read with).
 */
export function repliesToAnswer(
  threads: readonly ReviewThread[],
  ownLogin: string,
  answered: ReadonlySet<number>,
): ReplyToAnswer[] {
  const byId = new Map(threads.map((t) => [t.id, t]));
  const out: ReplyToAnswer[] = [];
  for (const own of ownThreads(threads, ownLogin)) {
    // A resolved thread is settled (fixed or dismissed): a late reply there waits for a person.
    if (own.isResolved) continue;
    const t = byId.get(own.id)!;
    const marked = new Set(own.ownReplies.flatMap((b) => [...b.matchAll(ANSWER_MARK)].map((m) => Number(m[1]))));
    const finding = findingText(t.comments[0]!.body).trim();
    for (const c of t.comments.slice(1)) {
      const id = c.databaseId;
      if (id === null || !c.author || sameLogin(c.author, ownLogin)) continue;
      if (c.authorIsBot || /\[bot\]$/i.test(c.author)) continue;
      if (COMMAND.test(c.body) || answered.has(id) || marked.has(id)) continue;
      out.push({ thread: own, finding, reply: { id, author: c.author, body: c.body } });
    }
  }
  return out;
}
