// Dismissals that stick: a person with write access says a finding of the action is wrong, by
// replying `/review-loop dismiss [reason]` in the action's thread of it, or by resolving that
// thread when the loop did not fix the finding. A dismissed finding is never posted, fixed or
// counted again, in this run or a later one, however a reviewer words it next time
// (docs/decisions/0017-dismissals-stick.md). Who may dismiss is judged by the caller (it asks
// GitHub); this module reads the threads and applies the verdicts. Pure.
import type { ReviewThread } from '../domain/pull-request.js';
import { ownThreads, sameLogin } from './own-threads.js';
import { categoryCode } from './finding-id.js';
import { sameProblem, titleSimilarity, type Comparable } from './similarity.js';
import type { FixedFingerprint } from '../domain/findings.js';
import type { DismissalRequest, Dismissal, DismissedFinding, Finding, RefusedDismissal } from '../domain/findings.js';

/** Whether a person may dismiss findings; `why` says why not. */
export type Verdict = { ok: true } | { ok: false; why: string };

/** The command, at the start of a reply; the rest of the reply is the reason. */
const COMMAND = /^\s*\/review-loop\s+dismiss(?=\s|$)([\s\S]*)$/i;
/** A reason longer than this is cut: it is shown in reports and kept in the hidden state. */
const MAX_REASON_CHARS = 300;
/** The line of an inline comment that gives priority, agreement, category and id (report/inline-comment.ts). */
const META_LINE = / · \d+\/\d+ reviewers? · category /;
/** Title words two findings must share (Jaccard) to be one problem without a line to place them. */
const NEARLY_SAME_TITLE = 0.8;

/** The reason a reply gives, or null when the reply is not the dismiss command. */
export function dismissCommand(body: string): string | null {
  const m = COMMAND.exec(body);
  if (!m) return null;
  return (m[1] ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_REASON_CHARS);
}

/**
 * Every request in our threads, oldest first per thread: each dismiss command a person replied,
 * and a resolution by someone other than the action of a thread whose finding was not fixed
 * (`fixed`: what the loop fixed, this run and earlier ones; the action resolves those itself).
 */
export function dismissalRequests(
  threads: readonly ReviewThread[],
  ownLogin: string,
  fixed: readonly FixedFingerprint[],
): DismissalRequest[] {
  const byId = new Map(threads.map((t) => [t.id, t]));
  const requests: DismissalRequest[] = [];
  for (const own of ownThreads(threads, ownLogin)) {
    const t = byId.get(own.id)!;
    const text = findingText(t.comments[0]!.body);
    const base = { thread: own.id, finding: own.finding, line: own.line, text };
    for (const c of t.comments.slice(1)) {
      if (!c.author || sameLogin(c.author, ownLogin)) continue;
      const reason = dismissCommand(c.body);
      if (reason !== null) requests.push({ ...base, by: c.author, reason, via: 'command' });
    }
    const resolver = t.isResolved ? (t.resolvedBy ?? null) : null;
    if (resolver && !sameLogin(resolver, ownLogin) && !wasFixed(own.finding, fixed)) {
      requests.push({ ...base, by: resolver, reason: '', via: 'resolved' });
    }
  }
  return requests;
}

/** What our comment says of its finding: without the hidden marks and the line of priority and agreement. */
export function findingText(body: string): string {
  return body
    .split('\n')
    .filter((l) => !l.startsWith('<!--') && !META_LINE.test(l))
    .join('\n');
}

function wasFixed(f: FixedFingerprint, fixed: readonly FixedFingerprint[]): boolean {
  const about = { ...f, line: null };
  return fixed.some((p) => p.id === f.id || sameProblem({ ...p, line: null }, about, { useLines: false }));
}

/**
 * The verdicts: per thread, the first request by someone `mayDismiss` accepts; requests in a
 * thread nobody with write access acted in are refused (the report says so). Each login is asked once.
 */
export async function judgeDismissals(
  requests: readonly DismissalRequest[],
  mayDismiss: (login: string) => Promise<Verdict>,
): Promise<{ accepted: Dismissal[]; refused: RefusedDismissal[] }> {
  const logins = [...new Set(requests.map((r) => r.by.toLowerCase()))];
  const verdicts = new Map(await Promise.all(logins.map(async (l) => [l, await mayDismiss(l)] as const)));
  const verdict = (r: DismissalRequest): Verdict => verdicts.get(r.by.toLowerCase())!;
  const accepted = new Map<string, Dismissal>();
  for (const r of requests) if (verdict(r).ok && !accepted.has(r.thread)) accepted.set(r.thread, r);
  const seen = new Set<string>();
  const refused: RefusedDismissal[] = [];
  for (const r of requests) {
    const v = verdict(r);
    const key = `${r.thread}\0${r.by.toLowerCase()}`;
    if (accepted.has(r.thread) || v.ok || seen.has(key)) continue;
    seen.add(key);
    refused.push({ ...r, why: v.why });
  }
  return { accepted: [...accepted.values()], refused };
}

/**
 * This round's dismissals: what the threads say, and what earlier runs learned (`cached`) about
 * threads this run cannot read whole (beyond the threads or comments GitHub returned). A thread it
 * can read whole speaks for itself: a person who unresolved it, or deleted the command, undid it.
 */
export function withCached(
  accepted: readonly Dismissal[],
  cached: readonly Dismissal[],
  threads: readonly ReviewThread[],
): Dismissal[] {
  const whole = (t: ReviewThread) => t.comments.length >= (t.commentCount ?? t.comments.length);
  const readWhole = new Set(threads.filter(whole).map((t) => t.id));
  const have = new Set(accepted.map((d) => d.thread));
  const kept = cached.filter((d) => !readWhole.has(d.thread) && !have.has(d.thread) && have.add(d.thread));
  return [...accepted, ...kept];
}

/**
 * Splits agent findings into those no dismissal covers and the dismissed. A finding is the
 * dismissed one when it has its id, or when it is the same kind of problem (category) and the same
 * problem by the agreement rules at a place near the thread's line (GitHub moves the line with the
 * diff): by its title, or by what its text says (another reviewer's words). A thread with no line
 * (outdated) covers only the same kind of problem in nearly the same title. A dismissal silences
 * one problem, never a file: a finding of the same kind further down the file is another one.
 */
export function splitDismissed(
  findings: readonly Finding[],
  dismissals: readonly Dismissal[],
  renames?: ReadonlyMap<string, string>,
): { kept: Finding[]; dismissed: DismissedFinding[] } {
  const kept: Finding[] = [];
  const dismissed: DismissedFinding[] = [];
  const moved = renames ? { renames } : {};
  for (const f of findings) {
    const ids = new Set([f.id, ...(f.aliases ?? [])]);
    const covers = (d: Dismissal): boolean => {
      if (ids.has(d.finding.id)) return true;
      const about: Comparable = { ...d.finding, line: d.line, ...(d.text ? { description: d.text } : {}) };
      if (categoryCode(about.category) !== categoryCode(f.category)) return false;
      if (d.line !== null) return sameProblem(about, f, { useLines: true, crossReviewer: true, ...moved });
      const follow = (file: string | null) => (file && renames?.get(file)) ?? file;
      return follow(about.file) === follow(f.file) && titleSimilarity(about.title, f.title) >= NEARLY_SAME_TITLE;
    };
    const d = f.source.type === 'agent' ? dismissals.find(covers) : undefined;
    if (d) dismissed.push({ finding: f, dismissal: d });
    else kept.push(f);
  }
  return { kept, dismissed };
}

export interface DismissalTracker {
  /** The round's dismissals and refused requests, from its threads and what the run knew before. */
  forRound(
    threads: readonly ReviewThread[],
    fixed: readonly FixedFingerprint[],
    /** The ids of open decisions: their threads are dismissed only by someone who may answer them. */
    decisionIds?: ReadonlySet<string>,
  ): Promise<{
    dismissals: Dismissal[];
    refused: RefusedDismissal[];
  }>;
}

/**
 * Reads each round's threads; what an earlier round or run learned serves as the cache for threads
 * a round cannot read whole. Each person's permission is asked once a run.
 */
export function dismissalTracker(s: {
  ownLogin: string;
  cached: readonly Dismissal[];
  mayDismiss: (login: string) => Promise<Verdict>;
  /** Who may answer a decision (github/answerers.ts): the PR's author and its pushers may not dismiss one. */
  mayAnswer?: (login: string) => Promise<Verdict>;
  log: (line: string) => void;
}): DismissalTracker {
  let known: Dismissal[] = [...s.cached];
  const asked = new Map<string, Promise<Verdict>>();
  const mayDismiss = (login: string): Promise<Verdict> => {
    const key = login.toLowerCase();
    if (!asked.has(key)) asked.set(key, s.mayDismiss(login));
    return asked.get(key)!;
  };
  return {
    async forRound(threads, fixed, decisionIds = new Set()) {
      const requests = dismissalRequests(threads, s.ownLogin, fixed);
      const isDecision = (r: DismissalRequest) => decisionIds.has(r.finding.id);
      const plain = await judgeDismissals(
        requests.filter((r) => !isDecision(r)),
        mayDismiss,
      );
      // A decision's thread: dismissing it answers the maintainers' question, under the same rule.
      const answerer = s.mayAnswer ?? mayDismiss;
      const asked = await judgeDismissals(requests.filter(isDecision), async (login) => {
        const write = await mayDismiss(login);
        return write.ok ? answerer(login) : write;
      });
      const accepted = [...plain.accepted, ...asked.accepted];
      const refused = [...plain.refused, ...asked.refused];
      known = withCached(accepted, known, threads);
      if (known.length) s.log(`dismissed by people with write access: ${known.map((d) => d.finding.id).join(', ')}`);
      for (const r of refused) s.log(`refused a request by ${r.by} to dismiss ${r.finding.id}: ${r.why}`);
      return { dismissals: known, refused };
    },
  };
}
