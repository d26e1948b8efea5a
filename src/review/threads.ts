// Unresolved human review threads as findings. The analyzer judges priority and words
// the request; the set of threads and their ids come from the API, so an agent can
// neither invent a thread nor drop one.
import type { RawFinding } from '../agents/envelope.js';
import type { ReviewThread } from '../github/types.js';
import { threadFindingId } from './finding-id.js';
import type { Finding } from './types.js';

export const MARKER = '<!-- pr-review-loop-marker -->';

/** Unresolved threads a human started (our own marker comments never count). */
export function humanUnresolved(threads: ReviewThread[]): ReviewThread[] {
  return threads.filter((t) => !t.isResolved && t.comments.length > 0 && !t.comments[0]!.body.includes(MARKER));
}

function firstCommentKey(t: ReviewThread): string {
  const c = t.comments[0]!;
  return String(c.databaseId ?? c.id);
}

export function threadFindings(threads: ReviewThread[], pending: RawFinding[]): Finding[] {
  const byKey = new Map<string, RawFinding>();
  for (const p of pending) {
    const ref = p.source?.reviewId ?? p.id?.replace(/^THREAD-/, '');
    if (ref != null) byKey.set(String(ref), p);
  }
  return threads.map((t) => {
    const key = firstCommentKey(t);
    const first = t.comments[0]!;
    const p = byKey.get(key) ?? byKey.get(first.id);
    return {
      id: threadFindingId(key),
      priority: p?.priority ?? 'P2',
      category: 'review-thread',
      file: t.path ?? first.path,
      line: t.line ?? first.line,
      title: p?.title ?? `Unresolved review thread by ${first.author ?? 'a reviewer'}`,
      description: p?.description ?? first.body.slice(0, 500),
      suggestion: p?.suggestion ?? null,
      source: { type: 'human', name: first.author ?? 'unknown', reviewId: key },
      reportedBy: [first.author ?? 'unknown'],
    };
  });
}
