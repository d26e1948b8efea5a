// The review threads the action started: the first comment carries our marker and the
// finding's mark, AND is authored by the token's own identity. The marker alone proves nothing:
// anyone can paste it, and the action must never reply to or resolve a human's thread.
import type { ReviewThread } from '../domain/pull-request.js';
import { readFindingMark } from './finding-mark.js';
import { MARKER } from '../domain/marker.js';
import { sameProblem, type Comparable } from './similarity.js';
import type { FixedFingerprint } from '../domain/findings.js';

export interface OwnThread {
  /** GraphQL node id (resolveReviewThread). */
  id: string;
  /** REST id of the first comment (replies go to it). */
  commentId: number;
  isResolved: boolean;
  finding: FixedFingerprint;
  /** The file and line GitHub shows the thread on. */
  path: string | null;
  line: number | null;
  /** Bodies of our own later comments, oldest first: what was already said in the thread. */
  ownReplies: string[];
}

/**
 * GraphQL names a bot without the `[bot]` suffix REST shows (`github-actions` for
 * `github-actions[bot]`); logins are case-insensitive.
 */
export function sameLogin(graphqlLogin: string | null, restLogin: string): boolean {
  if (!graphqlLogin) return false;
  const bare = (l: string) => l.toLowerCase().replace(/\[bot\]$/, '');
  return bare(graphqlLogin) === bare(restLogin);
}

export function ownThreads(threads: readonly ReviewThread[], ownLogin: string): OwnThread[] {
  const out: OwnThread[] = [];
  for (const t of threads) {
    const [first, ...rest] = t.comments;
    if (!first || first.databaseId === null) continue;
    if (!sameLogin(first.author, ownLogin) || !first.body.includes(MARKER)) continue;
    const finding = readFindingMark(first.body);
    if (!finding) continue;
    out.push({
      id: t.id,
      commentId: first.databaseId,
      isResolved: t.isResolved,
      finding,
      path: t.path,
      line: t.line,
      ownReplies: rest.filter((c) => sameLogin(c.author, ownLogin)).map((c) => c.body),
    });
  }
  return out;
}

/** Our open thread about this finding: the same id, or the same problem by the agreement rules. */
export function openThreadFor(
  threads: readonly OwnThread[],
  f: Comparable & { id: string; aliases?: string[] },
): OwnThread | undefined {
  const open = threads.filter((t) => !t.isResolved);
  const ids = new Set([f.id, ...(f.aliases ?? [])]);
  return (
    open.find((t) => ids.has(t.finding.id)) ??
    open.find((t) => sameProblem({ ...t.finding, line: t.line }, f, { useLines: false }))
  );
}

/**
 * Our newest thread (open or resolved) about a finding: the same id, else the same problem by
 * the agreement rules (ids hash the line, which a fix above the finding moves).
 */
function threadFor(threads: readonly OwnThread[], f: FixedFingerprint): OwnThread | undefined {
  const newest = [...threads].reverse();
  const line = { line: null };
  return (
    newest.find((t) => t.finding.id === f.id) ??
    newest.find((t) => sameProblem({ ...t.finding, ...line }, { ...f, ...line }, { useLines: false }))
  );
}

/**
 * Our threads about a finding: every one with its id (a finding with several places has a comment
 * on each, two of them maybe in one file); else, as threadFor, the newest that is the same problem.
 */
export function threadsFor(threads: readonly OwnThread[], f: FixedFingerprint): OwnThread[] {
  const withId = threads.filter((t) => t.finding.id === f.id);
  if (withId.length > 0) return withId;
  const same = threadFor(threads, f);
  return same ? [same] : [];
}
