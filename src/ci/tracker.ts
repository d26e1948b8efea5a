// The run's view of its PR's CI: waits for the listed checks of each round's head,
// turns them into a CiRound, and keeps the fix attempts per check (seeded from the hidden state of
// earlier runs, written back with every report).
import type { Octokit } from '../github/client.js';
import { failureText } from '../github/read-only-token.js';
import type { RepoRef } from '../domain/pull-request.js';
import { jobLog } from './checks-api.js';
import { ciFindingId, ciRound, logTail, type CiRound } from './ci-round.js';
import { waitForChecks } from './wait.js';

export interface CiChecksSetup {
  octokit: Octokit;
  repo: RepoRef;
  /** `wait-for-checks`; empty: the loop waits for nothing. */
  wanted: readonly string[];
  timeoutMs: number;
  pollMs: number;
  maxAttempts: number;
  ownRunId: string | null;
  /** Attempts an earlier run of this job recorded. */
  seed: Readonly<Record<string, number>>;
  redact: (text: string) => string;
  log: (line: string) => void;
  warn: (line: string) => void;
}

export interface CiChecks {
  /** The listed checks of `sha`, or null when none are listed. `ours`: the loop pushed this head. */
  check(sha: string, ours: boolean): Promise<CiRound | null>;
  /** A fix of these CI findings was pushed: one attempt each. */
  attempted(ids: readonly string[]): void;
  /** The check passed on a head the loop pushed: its count starts again (the action's own setup check). */
  passed(id: string): void;
  attempts(): Record<string, number>;
}

export function createCiChecks(s: CiChecksSetup): CiChecks {
  const attempts: Record<string, number> = { ...s.seed };
  return {
    async check(sha, ours) {
      if (s.wanted.length === 0) return null;
      s.log(`checks: waiting for ${s.wanted.join(', ')} on ${sha.slice(0, 7)}`);
      let head;
      try {
        head = await waitForChecks({ ...s, sha, wanted: s.wanted });
      } catch (e) {
        // No verdict (a refused read without checks: read / actions: read, an outage): the run goes
        // on, and cannot converge on checks it could not see.
        s.warn(
          `could not read the checks of ${sha.slice(0, 7)} (${failureText(e)}); ` +
            'wait-for-checks needs the workflow permissions checks: read and actions: read',
        );
        head = { sha, checks: [], waiting: [...s.wanted] };
      }
      const tail = async (c: { jobId: number | null }) => {
        if (c.jobId === null) return '(not a GitHub Actions job: no log to read)';
        try {
          return logTail(await jobLog(s.octokit, s.repo, c.jobId), s.redact);
        } catch (e) {
          return `(its log could not be read: ${failureText(e)})`;
        }
      };
      const round = await ciRound({ head, attempts, maxAttempts: s.maxAttempts, tail });
      // A pass on a head the loop pushed ends the budget's count for that check.
      if (ours) for (const p of round.passed) delete attempts[ciFindingId(p)];
      const failing = [...round.findings.map((f) => f.id), ...round.escalated.map((e) => e.id)];
      const parts = [
        `${round.passed.length} passed`,
        `${failing.length} failing${failing.length ? ` (${failing.join(', ')})` : ''}`,
        ...(round.flaky.length ? [`${round.flaky.length} flaky`] : []),
        ...(round.waiting.length ? [`${round.waiting.length} not finished`] : []),
      ];
      s.log(`checks on ${sha.slice(0, 7)}: ${parts.join(', ')}`);
      return round;
    },
    attempted(ids) {
      for (const id of ids) attempts[id] = (attempts[id] ?? 0) + 1;
    },
    passed(id) {
      delete attempts[id];
    },
    attempts: () => ({ ...attempts }),
  };
}
