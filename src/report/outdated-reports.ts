// A quiet timeline: when a report of this job is posted, the reports it supersedes
// (this run's earlier ones, and on its first report those of earlier runs) are minimized as
// outdated: never edited, never deleted, one click away. Only comments of this workflow job,
// written by the token's identity, are ever minimized (preflight/memory.ts decides which: run-agents.ts).
import type { Octokit } from '../github/client.js';
import { minimizeAsOutdated, notMinimized } from '../github/minimize.js';
import { failureText } from '../github/read-only-token.js';

export interface OutdatedReportsSetup {
  octokit: Octokit;
  enabled: boolean;
  /** Node ids of this job's report comments from earlier runs, oldest first. */
  earlier: string[];
  log: (line: string) => void;
  warn: (line: string) => void;
}

/** Called with each new report comment's node id, after it is posted. */
export type SupersedeReports = (posted: string) => Promise<void>;

export function supersedeReports(s: OutdatedReportsSetup): SupersedeReports {
  let previous: string[] | null = null; // null: the earlier runs' reports are not checked yet
  let off = !s.enabled;
  return async (posted) => {
    if (off) return;
    try {
      const stale = previous ?? (await notMinimized(s.octokit, s.earlier));
      for (const id of stale) await minimizeAsOutdated(s.octokit, id);
      if (stale.length) s.log(`minimized ${stale.length} earlier report comment(s) as outdated`);
    } catch (e) {
      // Hiding old reports is a courtesy: a refusal (or any failure) stops it, not the run.
      off = true;
      s.warn(`could not minimize earlier report comments (${failureText(e)}); they stay as they are`);
    }
    previous = [posted];
  };
}
