// How many answers the action gives in its own threads. Every reply starts a run (a workflow that
// subscribes to pull_request_review_comment), so a spree of replies must cost a few model calls,
// not one each: one answer per thread per run (it covers all the thread's waiting replies), a few
// threads per run, and a cap per thread and per PR over the last hour. The hour is counted from the
// answers themselves, as GitHub holds them (the action's comments in its threads carrying an answer
// mark, with their created_at): a run cancelled after posting still counts, and no state is needed.
// Replies over a limit are not dropped: they wait, and a later run answers them. Pure.
import type { ReviewThread } from '../domain/pull-request.js';
import { ownThreads, sameLogin } from './own-threads.js';
import { isAnswer } from './thread-replies.js';

export const ANSWER_LIMITS = {
  /** Threads answered in one run. */
  perRun: 5,
  /** Answers in one thread over the last hour. */
  perThreadPerHour: 3,
  /** Answers in the whole PR over the last hour. */
  perPrPerHour: 10,
} as const;

const HOUR_MS = 60 * 60 * 1000;

/** The action's answers posted in the last hour: per own thread (GraphQL id), and in all. */
export interface RecentAnswers {
  total: number;
  byThread: ReadonlyMap<string, number>;
}

export function recentAnswers(threads: readonly ReviewThread[], ownLogin: string, now: number): RecentAnswers {
  const own = new Set(ownThreads(threads, ownLogin).map((t) => t.id));
  const byThread = new Map<string, number>();
  let total = 0;
  for (const t of threads) {
    if (!own.has(t.id)) continue;
    const recent = t.comments
      .slice(1)
      .filter((c) => sameLogin(c.author, ownLogin) && isAnswer(c.body) && now - Date.parse(c.createdAt) < HOUR_MS);
    if (recent.length === 0) continue;
    byThread.set(t.id, recent.length);
    total += recent.length;
  }
  return { total, byThread };
}

/**
 * Which of the threads with waiting replies (oldest first) get an answer this run, and why the
 * others wait (a line for the log), or null when every one is answered.
 */
export function threadsWithinLimits(
  threadIds: readonly string[],
  recent: RecentAnswers,
): { answer: string[]; held: string | null } {
  const { perRun, perThreadPerHour, perPrPerHour } = ANSWER_LIMITS;
  const room = Math.max(0, Math.min(perRun, perPrPerHour - recent.total));
  const open = threadIds.filter((id) => (recent.byThread.get(id) ?? 0) < perThreadPerHour);
  const answer = open.slice(0, room);
  const waiting = threadIds.length - answer.length;
  if (waiting === 0) return { answer, held: null };
  const full = threadIds.length - open.length;
  const why: string[] = [];
  if (full) why.push(`${full} had ${perThreadPerHour} answers in the last hour, a thread's most`);
  if (recent.total >= perPrPerHour) why.push(`the PR had ${recent.total} in the last hour, its most`);
  else if (open.length > room) {
    why.push(room < perRun ? `the PR's last ${room} of ${perPrPerHour} an hour` : `${perRun} a run at most`);
  }
  return {
    answer,
    held:
      `thread answers: replies wait in ${threadIds.length} threads; answering ${answer.length} now ` +
      `(${why.join('; ')}); ${waiting} wait for a later run`,
  };
}
