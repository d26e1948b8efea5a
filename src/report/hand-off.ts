// Handing a converged PR to humans: `converged-label` is added when the run ends
// `converged` and removed when a run ends with blocking findings left; with
// `ready-when-converged`, a draft PR is marked ready for review. A refused or failed write is
// a warning that names the permission: the run's outcome stands.
import type { Octokit } from '../github/client.js';
import { addLabel, markReady, removeLabel } from '../github/hand-off.js';
import { failureText } from '../github/read-only-token.js';
import type { RepoRef } from '../domain/pull-request.js';
import type { LoopResult } from '../domain/loop.js';
import type { Finding } from '../domain/findings.js';

export interface HandOffSetup {
  octokit: Octokit;
  repo: RepoRef;
  prNumber: number;
  convergedLabel?: string;
  readyWhenConverged: boolean;
  /** Dry run, or a token that may not write: nothing is changed. */
  writes: boolean;
  log: (line: string) => void;
  warn: (line: string) => void;
}

/** What keeps a run from converging: a P0–P2 finding or a human's open thread. */
const isBlocking = (f: Finding) => f.priority !== 'P3' || f.source.type === 'human';

export async function handOff(
  s: HandOffSetup,
  result: Pick<LoopResult, 'status' | 'remaining' | 'unchecked'>,
): Promise<void> {
  if (!s.writes) return;
  // A fix no other model checked (its reviewers failed) earns nothing: a PR must not win the label
  // by making the one independent reviewer fail.
  const unchecked = result.unchecked?.length ?? 0;
  if (result.status === 'converged' && unchecked > 0 && (s.convergedLabel || s.readyWhenConverged)) {
    s.log(`converged, but ${unchecked} fix(es) are unchecked by another model: no label, not marked ready`);
  }
  const converged = result.status === 'converged' && unchecked === 0;
  const attempt = async (what: string, needs: string, act: () => Promise<void>) => {
    try {
      await act();
    } catch (e) {
      s.warn(`could not ${what} (${failureText(e)}); it needs the workflow permission ${needs}`);
    }
  };
  const label = s.convergedLabel;
  if (label && converged) {
    await attempt(`add the label "${label}"`, 'pull-requests: write (and issues: write for a new label)', async () => {
      await addLabel(s.octokit, s.repo, s.prNumber, label);
      s.log(`added the label "${label}": the loop converged`);
    });
  } else if (label && result.remaining.some((f) => isBlocking(f))) {
    await attempt(`remove the label "${label}"`, 'pull-requests: write', async () => {
      const removed = await removeLabel(s.octokit, s.repo, s.prNumber, label);
      if (removed) s.log(`removed the label "${label}": findings are open`);
    });
  }
  if (s.readyWhenConverged && converged) {
    await attempt('mark the PR ready for review', 'pull-requests: write and contents: write', async () => {
      const marked = await markReady(s.octokit, s.repo, s.prNumber);
      if (marked) s.log('marked the draft PR ready for review: the loop converged');
    });
  }
}
