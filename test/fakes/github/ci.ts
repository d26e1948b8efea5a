// The fake's CI: GitHub Actions runs of a commit, their jobs (each a check run of the
// same name in the commit's check suite) and the jobs' logs, as a test scripts them per commit.
// When runs exist for a commit follows GitHub: the PR's own head gets its `pull_request` CI when
// the fake first sees it; a push the action makes with GITHUB_TOKEN starts no workflow ("events
// triggered by the GITHUB_TOKEN will not create a new workflow run", GitHub's docs), so a fix commit
// gets CI only from a workflow_dispatch of the PR branch (`dispatch-workflows`), and then only the
// dispatched workflow.
import { nextId } from './ids.js';
import type { FakeCiJob } from './types.js';

export interface CiJobState {
  id: number;
  runId: number;
  name: string;
  /** Attempts of this job on its commit, oldest first; the last is the current one. */
  attempts: { id: number; conclusion: string }[];
  log: string;
  /** Queries still answered "in_progress". */
  pendingPolls: number;
  startedAt: string;
}

export interface CiRunState {
  id: number;
  checkSuiteId: number;
  path: string;
  name: string;
  headSha: string;
  headBranch: string;
  event: string;
  jobs: CiJobState[];
  createdAt: string;
}

/** Looks a commit's files up for a CI script (null: no such file at that commit). */
export type ReadAt = (sha: string, path: string) => Promise<string | null>;
export type CiScript = (
  sha: string,
  read: (path: string) => Promise<string | null>,
) => FakeCiJob[] | Promise<FakeCiJob[]>;

const base = (f: string): string => f.split('/').pop() ?? f;

export class FakeCi {
  readonly runs: CiRunState[] = [];
  private readonly started = new Set<string>();

  constructor(
    private readonly script: CiScript | undefined,
    private readonly read: ReadAt,
  ) {}

  /** CI of one event on a commit: the runs of every scripted workflow, or of `only` (a dispatch). */
  async trigger(sha: string, branch: string, event: string, only?: string): Promise<void> {
    if (!this.script) return;
    const key = `${sha}:${event}:${only ?? '*'}`;
    if (this.started.has(key)) return;
    this.started.add(key);
    const jobs = (await this.script(sha, (p) => this.read(sha, p))).filter(
      (j) => !only || base(j.workflow) === base(only),
    );
    const byWorkflow = new Map<string, FakeCiJob[]>();
    for (const j of jobs) byWorkflow.set(j.workflow, [...(byWorkflow.get(j.workflow) ?? []), j]);
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    for (const [path, list] of byWorkflow) {
      // Run ids are unique across a repository: apart from the runs tests register (the action's own).
      const id = 5_000_000 + nextId();
      this.runs.push({
        id,
        checkSuiteId: id + 700_000,
        path,
        name: base(path).replace(/\.ya?ml$/, ''),
        headSha: sha,
        headBranch: branch,
        event,
        createdAt: now,
        jobs: list.map((j) => ({
          id: nextId(),
          runId: id,
          name: j.job,
          log: j.log ?? '',
          pendingPolls: j.pendingPolls ?? 0,
          startedAt: now,
          attempts: [...(j.earlier ?? []), j.conclusion].map((conclusion) => ({ id: nextId(), conclusion })),
        })),
      });
    }
  }

  runsFor(sha: string): CiRunState[] {
    return this.runs.filter((r) => r.headSha === sha);
  }

  findJob(id: number): { run: CiRunState; job: CiJobState; attempt: number } | null {
    for (const run of this.runs) {
      for (const job of run.jobs) {
        const attempt = job.attempts.findIndex((a) => a.id === id);
        if (attempt >= 0) return { run, job, attempt };
      }
    }
    return null;
  }
}
