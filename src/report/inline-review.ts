// Findings where developers read reviews: each review round posts one pull request
// review with an inline comment per finding on a line of the diff (none for a finding that
// already has an open thread of ours); after a pushed fix, our threads of fixed findings get
// "Fixed in <commit>", and are resolved once a model that did not write the fix checked it (the gate
// at once, else the next review: review/fix-checks.ts), rejected ones get the fixer's reason and stay open, a
// finding that came back gets a note for a human. Only threads the action started are ever
// touched (review/own-threads.ts). The report carries every finding whatever happens here, so
// a refused or failed write costs the inline view, not the run.
import type { FixRoundRecord } from '../domain/fix.js';
import type { Octokit } from '../github/client.js';
import { diffLines } from '../github/diff-lines.js';
import { failureText, writeRefusal } from '../github/read-only-token.js';
import { isUnplaceable, postReview, replyInThread, resolveThread } from '../github/review-api.js';
import { getReviewThreads } from '../github/threads.js';
import type { PrContext, RepoRef } from '../domain/pull-request.js';
import { openThreadFor, ownThreads, threadsFor, type OwnThread } from '../review/own-threads.js';
import type { Decision, Finding, FixCheck, FixedFingerprint } from '../domain/findings.js';
import { decisionAsk } from './markdown-decisions.js';

/** A decision as its thread is found and asked in. */
type DecisionInThread = FixedFingerprint & Omit<Decision, 'answer'>;

const fingerprintOf = ({ id, category, file, title }: Finding): FixedFingerprint => ({ id, category, file, title });
import type { DismissalRequest, ReviewRoundRecord } from '../domain/findings.js';
import { code, commitLink, inline, repoUrl, type ReportContext } from './format.js';
import { splitFindingMark } from '../review/finding-mark.js';
import { inlineComments, placeInline } from './inline-places.js';
import { MARKER } from '../domain/marker.js';
import type { Publisher } from './publish.js';
import { LOUD, type HeldBack, type InlineQuiet } from './inline-selection.js';
import { capLength } from '../security/sanitize.js';

export interface InlineReviewSetup {
  enabled: boolean;
  octokit: Octokit;
  repo: RepoRef;
  prNumber: number;
  /** The token's login (REST form): only threads it started are ours. */
  ownLogin: string;
  publisher: Publisher;
  reportCtx: ReportContext;
  redact: (text: string) => string;
  log: (line: string) => void;
  warn: (line: string) => void;
  /** Quiet mode: the lowest priority commented inline, and a cap per round. */
  quiet?: InlineQuiet;
}

export interface InlineReview {
  /** Per finding id, our open thread about it: the report links to it, and no new comment is posted. */
  openThreads(rec: ReviewRoundRecord, ctx: PrContext): Map<string, string>;
  /**
   * Posts the round's review, after its report: the report is the run's first write, which
   * decides whether the token may write at all (WritesRefused).
   */
  review(rec: ReviewRoundRecord, ctx: PrContext): Promise<void>;
  /** What quiet mode keeps out of this round's inline review (the report says so); null when nothing. */
  heldBack(rec: ReviewRoundRecord, ctx: PrContext): HeldBack | null;
  /**
   * After the round's fix: replies in our threads of fixed and rejected findings, and resolves the
   * fixed. `about`: what each finding of the round was about, to find a thread whose id moved.
   */
  afterFix(
    rec: FixRoundRecord,
    about: readonly FixedFingerprint[],
    decisions?: readonly DecisionInThread[],
  ): Promise<void>;
}

/** The evidence of a confirmed finding, for its thread. */
function proof(rec: FixRoundRecord, findingId: string): string {
  const c = rec.confirmed?.find((x) => x.findingId === findingId && x.passesAfter);
  if (!c) return '';
  const file = c.testFile ? `, regression test ${code(c.testFile)}` : '';
  return ` Proven by a test the action ran: ${code(c.command)} failed before this fix and passes after it${file}.`;
}

const UNCHECKED_NOTE =
  'Not checked yet: this thread is resolved once a reviewer on a model that did not write the fix finds ' +
  'nothing left of it.';
const GATE_CHECKED = (gate: string) => `Checked by the gate (${code(gate)}) before the push.`;

/** What a thread of a fixed finding is told once a review looked at the fix. */
function checkNote(c: FixCheck): string {
  const by = c.by.map((b) => inline(b, 120)).join(', ');
  if (c.state === 'checked') return `Checked by ${by}: nothing left of it.`;
  if (c.state === 'own-model') {
    return "Checked only by the fixer's model: no other model is on the panel to check it.";
  }
  const why = by || 'no reviewer on another model answered';
  return `Still not checked by another model (${why}); the next review tries again.`;
}

const STUCK_NOTE = 'This came back after a fix in an earlier round. The loop will not try again: it needs a human.';

/** Said once in the thread of a dismissed finding, and once per refused request. */
function dismissalNote(d: DismissalRequest, refusedWhy?: string): string {
  const who = inline(d.by, 60);
  if (refusedWhy !== undefined) {
    return `Not dismissed: ${inline(refusedWhy, 200)}. Only people with write access can dismiss a finding.`;
  }
  const reason = d.reason ? ` (${inline(d.reason, 300)})` : '';
  return `Dismissed by ${who}${reason}. The loop will not fix, post or count this finding again.`;
}

export function createInlineReview(s: InlineReviewSetup): InlineReview {
  const { octokit, repo, prNumber } = s;
  // The marks at the start are the action's own, read back by later rounds: only the rest is redacted.
  const body = (text: string) => {
    const [marks, rest] = splitFindingMark(text);
    return capLength(marks + s.redact(rest));
  };
  const threadUrl = (t: OwnThread) => `${repoUrl(s.reportCtx)}/pull/${prNumber}#discussion_r${t.commentId}`;
  let off = false;
  const active = () => s.enabled && !off && !s.reportCtx.dryRun && !s.publisher.writesRefused;
  let resolveRefused = false;

  /**
   * A write that failed. Refused for lack of permission, the inline view stops for the run: the
   * report comments need other permissions (issues: write will do), so they go on.
   */
  const failed = (e: unknown, what: string): void => {
    const refused = writeRefusal(e) !== null;
    if (refused) off = true;
    const needs = refused ? '; it needs the workflow permission pull-requests: write' : '';
    s.warn(`could not ${what} (${failureText(e)}${needs}); the report comments have every finding`);
  };

  /** The round's findings that would get a new inline comment (quiet mode applied), and what it kept back. */
  const plan = (rec: ReviewRoundRecord, ctx: PrContext) => {
    const own = ownThreads(ctx.threads, s.ownLogin);
    const lines = diffLines(ctx.diff);
    const withoutThread = rec.findings.filter((f) => f.source.type === 'agent' && !openThreadFor(own, f));
    return { own, ...placeInline(withoutThread, lines, s.quiet ?? LOUD) };
  };

  const reply = async (t: OwnThread, text: string): Promise<boolean> => {
    const full = `${text}\n\n${MARKER}`;
    if (t.ownReplies.some((r) => r.trim() === full.trim())) return false; // said already
    await replyInThread(octokit, repo, prNumber, t.commentId, body(full));
    return true;
  };

  /** Resolves a thread, and says whether it did; after one refusal, no more tries (the permission is the run's). */
  const resolve = async (t: OwnThread): Promise<boolean> => {
    if (resolveRefused) return false;
    try {
      await resolveThread(octokit, t.id);
      return true;
    } catch (e) {
      resolveRefused = true;
      s.warn(
        `could not resolve review threads (${failureText(e)}); ` +
          'resolving needs the workflow permission contents: write; the threads say why instead',
      );
      return false;
    }
  };

  /**
   * One log line for the threads of a finding resolved together: a finding with several places has
   * a thread on each, and one line per place read as the same thread resolved again.
   */
  const logResolved = (findingId: string, threads: readonly OwnThread[], why: string): void => {
    if (threads.length === 0) return;
    const places = threads.map((t) => `${t.path ?? 'a file'}${t.line ? `:${t.line}` : ''}`).join(', ');
    const which = threads.length === 1 ? 'the thread' : `the ${threads.length} threads`;
    s.log(`resolved ${which} of ${findingId} (${places}): ${why}`);
  };

  /** Each open decision asked once in its finding's thread, with its options and how to answer. */
  const askDecisions = async (asks: readonly DecisionInThread[], own: OwnThread[]): Promise<void> => {
    for (const d of asks) {
      const asked = d.by === 'fixer' ? 'the fixer handed it back' : 'its reviewers marked it';
      for (const t of threadsFor(own, d)) {
        if (!t.isResolved && (await reply(t, decisionAsk(d.id, d, asked))))
          s.log(`asked decision ${d.id} in its thread`);
      }
    }
  };

  /** An answered decision's thread says what was chosen (the person's own words are in their comment). */
  const tellAnswers = async (rec: ReviewRoundRecord, own: OwnThread[]): Promise<void> => {
    for (const f of rec.findings.filter((x) => x.decision?.answer)) {
      const { answer, options } = f.decision!;
      const option = inline(options[answer!.chosen - 1] ?? '', 400);
      const who = inline(answer!.by, 60);
      const note = `Decided by ${who}: option ${answer!.chosen}, ${option}. The fixer makes that change.`;
      for (const t of threadsFor(own, fingerprintOf(f))) if (!t.isResolved) await reply(t, note);
    }
  };

  /** Each fix this round checked: its threads say who checked it, and are resolved unless it is still unchecked. */
  const answerChecks = async (rec: ReviewRoundRecord, own: OwnThread[]): Promise<void> => {
    for (const c of rec.fixChecks ?? []) {
      if (c.state === 'came-back') continue; // the stuck note says it
      const note = checkNote(c);
      const resolved: OwnThread[] = [];
      for (const t of threadsFor(own, c.finding)) {
        if (t.isResolved) continue;
        await reply(t, note);
        if (c.state !== 'unchecked' && (await resolve(t))) resolved.push(t);
      }
      logResolved(c.finding.id, resolved, c.state === 'checked' ? 'checked by another model' : 'checked by its own');
    }
  };

  /** Each dismissal and refused request answered once in its thread; a dismissed finding's thread resolved. */
  const answerDismissals = async (rec: ReviewRoundRecord, own: OwnThread[]): Promise<void> => {
    const byId = new Map(own.map((t) => [t.id, t]));
    for (const { finding, dismissal } of rec.dismissed ?? []) {
      // The thread it was dismissed in, and the finding's threads at its other places.
      const asked = byId.get(dismissal.thread);
      const threads = new Set([...(asked ? [asked] : []), ...threadsFor(own, dismissal.finding)]);
      const resolved: OwnThread[] = [];
      for (const t of threads) {
        if (await reply(t, dismissalNote(dismissal))) s.log(`answered the dismissal of ${finding.id} in its thread`);
        if (!t.isResolved && (await resolve(t))) resolved.push(t);
      }
      logResolved(finding.id, resolved, `dismissed by ${dismissal.by}`);
    }
    for (const r of rec.refusedDismissals ?? []) {
      const t = byId.get(r.thread);
      if (t && (await reply(t, dismissalNote(r, r.why)))) s.log(`answered a refused dismissal of ${r.finding.id}`);
    }
  };

  return {
    openThreads(rec, ctx) {
      const links = new Map<string, string>();
      if (!s.enabled) return links;
      const own = ownThreads(ctx.threads, s.ownLogin);
      for (const f of rec.findings) {
        const open = f.source.type === 'agent' ? openThreadFor(own, f) : undefined;
        if (open) links.set(f.id, threadUrl(open));
      }
      return links;
    },

    heldBack(rec, ctx) {
      if (!s.enabled) return null;
      const { heldBack } = plan(rec, ctx);
      return heldBack.below + heldBack.overCap > 0 ? heldBack : null;
    },

    async review(rec, ctx) {
      if (!active()) return;
      const { own, chosen } = plan(rec, ctx);
      try {
        for (const f of rec.stuck) {
          for (const t of threadsFor(own, f)) {
            if (await reply(t, STUCK_NOTE)) s.log(`noted in its thread that ${f.id} came back`);
          }
        }
        await answerDismissals(rec, own);
        await answerChecks(rec, own);
        await askDecisions(
          rec.findings
            .filter((f) => f.decision && !f.decision.answer)
            .map((f) => ({ ...fingerprintOf(f), ...f.decision! })),
          own,
        );
        await tellAnswers(rec, own);
      } catch (e) {
        failed(e, 'reply in a thread');
        if (!active()) return;
      }
      const reviewers = rec.agents.filter((a) => a.role === 'reviewer' && a.status === 'ok').length;
      const comments = inlineComments(chosen, reviewers, body);
      if (comments.length === 0) return;
      const spread = comments.length > chosen.length ? ` (${comments.length} comments)` : '';
      const summary =
        `**pr-review-loop** · review round ${rec.round}: ${chosen.length} finding(s)${spread} on the ` +
        `lines of this diff. The round's report comment lists every finding.\n\n${MARKER}`;
      try {
        const posted = await postReview(octokit, repo, prNumber, { commitId: rec.headSha, body: summary, comments });
        s.log(`posted the inline review of round ${rec.round} (${comments.length} comment(s)): ${posted.htmlUrl}`);
      } catch (e) {
        const where = `the inline comments of round ${rec.round}`;
        if (isUnplaceable(e)) s.warn(`GitHub could not place ${where} on its diff; they are in the report only`);
        else failed(e, 'post the inline review');
      }
    },

    async afterFix(rec, about, decisions = []) {
      const fingerprint = (id: string): FixedFingerprint =>
        about.find((f) => f.id === id) ?? { id, category: '', file: null, title: '' };
      if (!active()) return;
      const pushed = rec.outcome === 'pushed' && rec.commitSha ? rec.fixed : [];
      if (pushed.length === 0 && rec.rejected.length === 0 && decisions.length === 0) return;
      try {
        // Fresh: the threads this round's review started are not in the round's context.
        const own = ownThreads((await getReviewThreads(octokit, repo, prNumber)).threads, s.ownLogin);
        // A finding with several places has a thread on each.
        for (const { findingId } of pushed) {
          const resolved: OwnThread[] = [];
          for (const t of threadsFor(own, fingerprint(findingId))) {
            if (t.isResolved) continue;
            const fixedIn = `Fixed in ${commitLink(s.reportCtx, rec.commitSha!)}.${proof(rec, findingId)}`;
            // Resolved once a model that did not write the fix passed it: the gate now, else a later review.
            await reply(t, `${fixedIn} ${rec.gateApproved ? GATE_CHECKED(rec.gateApproved) : UNCHECKED_NOTE}`);
            if (rec.gateApproved && (await resolve(t))) resolved.push(t);
          }
          logResolved(findingId, resolved, `fixed in ${rec.commitSha!.slice(0, 7)}`);
        }
        for (const { findingId, reason } of rec.rejected) {
          const why = `Not fixed: the fixer rejected it. Its reason: ${inline(reason, 500)}`;
          for (const t of threadsFor(own, fingerprint(findingId))) if (!t.isResolved) await reply(t, why);
        }
        await askDecisions(decisions, own);
      } catch (e) {
        failed(e, 'reply in the review threads');
      }
    },
  };
}
