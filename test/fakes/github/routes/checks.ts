// CI as the REST API shows it: a commit's check runs (one per job attempt, named after
// the job, in the check suite of its workflow run), the workflow runs of a commit, and job logs.
// GET …/actions/jobs/{job_id}/logs answers 302 to a plain-text file whose link "expires after 1
// minute" (REST docs); each line starts with a timestamp. A job still running has no log yet (404).
import { notFound, paginate, route } from '../http.js';
import type { Ctx, Reply, Route } from '../http.js';
import { ACTIONS_BOT, nodeId } from '../ids.js';
import { repository, simpleUser } from '../shapes.js';
import type { Json } from '../shapes.js';
import type { CiJobState, CiRunState } from '../ci.js';
import { baseRepoInput } from './repos.js';

const DOC = {
  checks: 'https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference',
  runs: 'https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-repository',
  logs: 'https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-run',
};

/** The app every Actions check run belongs to. */
function actionsApp(ctx: Ctx): Json {
  const owner = simpleUser(ctx.urls, 'github', 'Organization');
  return {
    id: 15368,
    slug: 'github-actions',
    node_id: 'MDM6QXBwMTUzNjg=',
    owner,
    name: 'GitHub Actions',
    description: '',
    external_url: 'https://help.github.com/en/actions',
    html_url: 'https://github.com/apps/github-actions',
    created_at: '2018-07-30T09:30:17Z',
    updated_at: '2024-04-10T20:33:16Z',
    permissions: {},
    events: [],
  };
}

const running = (j: CiJobState): boolean => j.pendingPolls > 0;

function checkRunJson(ctx: Ctx, run: CiRunState, job: CiJobState, attempt: number): Json {
  const { urls, state } = ctx;
  const a = job.attempts[attempt]!;
  const latest = attempt === job.attempts.length - 1;
  const done = !(latest && running(job));
  const api = `${urls.api}/repos/${state.fullName}`;
  const html = `${urls.web}/${state.fullName}/actions/runs/${run.id}/job/${a.id}`;
  return {
    id: a.id,
    head_sha: run.headSha,
    node_id: nodeId('CR', a.id),
    external_id: `job-${a.id}`,
    url: `${api}/check-runs/${a.id}`,
    html_url: html,
    details_url: html,
    status: done ? 'completed' : 'in_progress',
    conclusion: done ? a.conclusion : null,
    started_at: job.startedAt,
    completed_at: done ? job.startedAt : null,
    output: {
      title: null,
      summary: null,
      text: null,
      annotations_count: 0,
      annotations_url: `${api}/check-runs/${a.id}/annotations`,
    },
    name: job.name,
    check_suite: { id: run.checkSuiteId },
    app: actionsApp(ctx),
    pull_requests: [],
  };
}

/** Check runs of a commit: `filter=latest` (GitHub's default) the current attempt of each job, `all` every one. */
function listCheckRuns(ctx: Ctx): Reply {
  const ref = ctx.params.ref ?? '';
  const all = ctx.query.get('filter') === 'all';
  const runs = ctx.state.ci.runsFor(ref);
  const checks = runs.flatMap((run) =>
    run.jobs.flatMap((job) => {
      const attempts = all ? job.attempts.map((_a, i) => i) : [job.attempts.length - 1];
      return attempts.map((i) => checkRunJson(ctx, run, job, i));
    }),
  );
  // Each query is time passing for a job still running.
  for (const run of runs) for (const job of run.jobs) if (job.pendingPolls > 0) job.pendingPolls--;
  const page = paginate(ctx, checks);
  return { ...page, body: { total_count: checks.length, check_runs: page.body } };
}

function runJson(ctx: Ctx, run: CiRunState): Json {
  const { urls, state } = ctx;
  const repo = repository(urls, baseRepoInput(ctx));
  const url = `${urls.api}/repos/${state.fullName}/actions/runs/${run.id}`;
  const actor = simpleUser(urls, ACTIONS_BOT.login, 'Bot');
  const done = !run.jobs.some(running);
  const failed = run.jobs.some((j) => j.attempts.at(-1)!.conclusion !== 'success');
  const workflowId = run.checkSuiteId + 1_000_000;
  return {
    id: run.id,
    name: run.name,
    node_id: nodeId('WFR', run.id),
    check_suite_id: run.checkSuiteId,
    check_suite_node_id: nodeId('CS', run.checkSuiteId),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.path,
    display_title: run.name,
    run_number: run.id % 1000,
    run_attempt: Math.max(...run.jobs.map((j) => j.attempts.length)),
    referenced_workflows: [],
    event: run.event,
    status: done ? 'completed' : 'in_progress',
    conclusion: done ? (failed ? 'failure' : 'success') : null,
    workflow_id: workflowId,
    url,
    html_url: `${urls.web}/${state.fullName}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: run.createdAt,
    updated_at: run.createdAt,
    actor,
    triggering_actor: actor,
    run_started_at: run.createdAt,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${urls.api}/repos/${state.fullName}/check-suites/${run.checkSuiteId}`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${urls.api}/repos/${state.fullName}/actions/workflows/${workflowId}`,
    head_commit: {
      id: run.headSha,
      tree_id: run.headSha,
      message: 'A commit',
      timestamp: run.createdAt,
      author: { name: 'octocat', email: 'octocat@example.test' },
      committer: { name: 'octocat', email: 'octocat@example.test' },
    },
    repository: repo,
    head_repository: repo,
  };
}

/** The CI runs of a commit (`head_sha`), newest first as GitHub lists them. */
function listRuns(ctx: Ctx): Reply {
  const sha = ctx.query.get('head_sha');
  const runs = (sha ? ctx.state.ci.runsFor(sha) : ctx.state.ci.runs)
    .slice()
    .reverse()
    .map((r) => runJson(ctx, r));
  const page = paginate(ctx, runs);
  return { ...page, body: { total_count: runs.length, workflow_runs: page.body } };
}

function jobLogs(ctx: Ctx): Reply {
  const found = ctx.state.ci.findJob(Number(ctx.params.job_id));
  if (!found) return notFound(DOC.logs);
  const latest = found.attempt === found.job.attempts.length - 1;
  if (latest && running(found.job)) return notFound(DOC.logs);
  return { status: 302, headers: { location: `${ctx.urls.api}/_fake/job-logs/${ctx.params.job_id}` } };
}

/** The signed URL the redirect points to: the log as plain text, a timestamp in front of each line. */
function logFile(ctx: Ctx): Reply {
  const found = ctx.state.ci.findJob(Number(ctx.params.job_id));
  if (!found) return notFound(DOC.logs);
  const stamp = found.job.startedAt.replace('Z', '.0000000Z');
  const text = found.job.log
    .split('\n')
    .map((l) => `${stamp} ${l}`)
    .join('\n');
  return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: text };
}

export const checkRoutes: Route[] = [
  route('GET', '/repos/:owner/:repo/commits/:ref/check-runs', listCheckRuns),
  route('GET', '/repos/:owner/:repo/actions/runs', listRuns),
  route('GET', '/repos/:owner/:repo/actions/jobs/:job_id/logs', jobLogs),
  route('GET', '/_fake/job-logs/:job_id', logFile),
];
