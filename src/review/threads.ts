// Unresolved human review threads as findings. The analyzer judges priority and words
// the request; the set of threads and their ids come from the API, so an agent can
// neither invent a thread nor drop one.
import type { RawFinding } from '../agents/envelope.js';
import type { ReviewThread } from '../domain/pull-request.js';
import { MARKER } from '../domain/marker.js';
import { threadFindingId } from './finding-id.js';
import type { Finding } from '../domain/findings.js';

/**
 * Author associations of people who can write to the repository. GitHub's
 * CommentAuthorAssociation: OWNER, MEMBER (of the owning organization), COLLABORATOR
 * (invited); CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, MANNEQUIN and NONE are
 * people without write access (https://docs.github.com/graphql/reference/enums#commentauthorassociation).
 */
const WRITER_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

/** Unresolved threads a human started (our own marker comments never count). */
export function humanUnresolved(threads: ReviewThread[]): ReviewThread[] {
  return threads.filter((t) => !t.isResolved && t.comments.length > 0 && !t.comments[0]!.body.includes(MARKER));
}

/**
 * A thread whose author (the first comment's) can write to the repository. Anyone with a GitHub
 * account can open a review thread on a public PR; only a writer's thread blocks convergence and
 * counts for fail-on. The others are listed as comments from outside contributors; a
 * reply does not change whose thread it is (a maintainer who wants it fixed says so in a thread
 * of their own, or resolves it).
 */
export function startedByWriter(t: ReviewThread): boolean {
  const first = t.comments[0];
  return first !== undefined && WRITER_ASSOCIATIONS.has(first.authorAssociation);
}

/** Unresolved human threads, split by whether a writer started them. */
export function splitByWriters(threads: ReviewThread[]): { writers: ReviewThread[]; outsiders: ReviewThread[] } {
  const unresolved = humanUnresolved(threads);
  return { writers: unresolved.filter(startedByWriter), outsiders: unresolved.filter((t) => !startedByWriter(t)) };
}

/** The threads as the review agents read them (threads.json): outsiders' threads marked. */
export function threadsForReview(threads: ReviewThread[]): (ReviewThread & { outsider: boolean })[] {
  return humanUnresolved(threads).map((t) => ({ ...t, outsider: !startedByWriter(t) }));
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
