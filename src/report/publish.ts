// The only place reports leave the action: PR comments (unless dry-run), the job
// summary, and annotations for findings with a file and line.
import type { Octokit } from '../github/client.js';
import { postComment } from '../github/comments.js';
import { describeRefusal, readOnlyAdvice, writeRefusal } from '../github/read-only-token.js';
import type { RepoRef } from '../domain/pull-request.js';
import type { ActionIO } from '../domain/io.js';
import type { Finding } from '../domain/findings.js';
import type { Secrets } from '../security/run-secrets.js';
import { redactSecrets, sanitize } from '../security/sanitize.js';
import { composeComment, type HiddenState } from './state.js';

export interface PublisherOptions {
  octokit: Octokit;
  repo: RepoRef;
  prNumber: number;
  dryRun: boolean;
  /** The run's secrets (run-secrets.ts), or exact values. */
  secrets: Secrets;
  io: ActionIO;
}

/** What happens after a report comment is posted. */
type OnReportPosted = (nodeId: string) => Promise<void>;

export interface Publisher {
  /** Posts one marker comment and mirrors it into the job summary. */
  report(markdown: string, state: HiddenState): Promise<void>;
  /** Job summary only (e.g. failures before the first comment, the final summary). */
  summaryOnly(markdown: string): Promise<void>;
  annotate(findings: Finding[]): void;
  readonly commentsPosted: number;
  /**
   * The token may not write (known up front, or GitHub refused a comment): from now on
   * reports go to the job summary only. Logs why and how to get comments, once.
   */
  refuseWrites(reason: string): void;
  /** Why writes stopped, or null while the token may write. */
  readonly writesRefused: string | null;
  /** Set once the run knows which earlier reports a new one supersedes. */
  onPosted: OnReportPosted | null;
  /**
   * The replies in the action's threads answered so far, this run and earlier ones (REST ids):
   * every later report's hidden state carries them (review/thread-answers.ts).
   */
  answeredReplies: number[];
}

export function createPublisher(opts: PublisherOptions): Publisher {
  let posted = 0;
  let refused: string | null = null;
  const clean = (md: string) => sanitize(md, { secrets: opts.secrets });
  const refuseWrites = (reason: string) => {
    if (refused) return;
    refused = reason;
    opts.io.warning(redactSecrets(readOnlyAdvice(reason), opts.secrets));
  };
  const publisher: Publisher = {
    onPosted: null,
    answeredReplies: [],
    get commentsPosted() {
      return posted;
    },
    get writesRefused() {
      return refused;
    },
    refuseWrites,
    async report(markdown, state) {
      const { answeredReplies } = publisher;
      const full = answeredReplies.length ? { ...state, answered: answeredReplies } : state;
      const body = composeComment(markdown, full, { secrets: opts.secrets });
      await opts.io.appendSummary(`${clean(markdown)}\n\n---\n`);
      if (opts.dryRun) {
        opts.io.info(`dry-run: not posting the ${state.kind} report comment`);
        return;
      }
      if (refused) {
        opts.io.info(`not posting the ${state.kind} report comment: the token may not write; it is in the job summary`);
        return;
      }
      let c;
      try {
        c = await postComment(opts.octokit, opts.repo, opts.prNumber, body);
      } catch (e) {
        // The report is already in the summary: a refusal loses nothing, and no write follows it.
        const refusal = writeRefusal(e);
        if (!refusal) throw e;
        refuseWrites(describeRefusal(refusal));
        return;
      }
      posted++;
      opts.io.info(`posted the ${state.kind} report: ${c.htmlUrl}`);
      await publisher.onPosted?.(c.nodeId);
    },
    async summaryOnly(markdown) {
      await opts.io.appendSummary(`${clean(markdown)}\n`);
    },
    annotate(findings) {
      for (const f of findings) {
        if (!f.file) continue;
        const message = redactSecrets(
          `${f.id}: ${f.title}${f.description ? ` — ${f.description.slice(0, 500)}` : ''}`,
          opts.secrets,
        );
        const annotation = { title: `${f.priority} ${f.id}`, file: f.file, ...(f.line ? { startLine: f.line } : {}) };
        if (f.priority === 'P0' || f.priority === 'P1') opts.io.error(message, annotation);
        else if (f.priority === 'P2') opts.io.warning(message, annotation);
        else opts.io.notice(message, annotation);
      }
    },
  };
  return publisher;
}
