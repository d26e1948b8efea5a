// The runner's folders no sandboxed call may see, read from the variables the runner sets for
// the step. Each is hidden behind an empty folder in every call's mount view (mount-view.ts);
// what a call needs below one (the checkout, the action's files, a CLI) is mounted back.
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Variables naming the runner's files for this step: the file commands an earlier step can read
 * back (GITHUB_ENV holds every value exported with it, masked or not) and the event payload.
 * On a hosted runner they lie in RUNNER_TEMP; in a container job, below /github.
 */
const STEP_FILES = [
  'GITHUB_ENV',
  'GITHUB_OUTPUT',
  'GITHUB_STATE',
  'GITHUB_PATH',
  'GITHUB_STEP_SUMMARY',
  'GITHUB_EVENT_PATH',
];

/**
 * The runner's HOME, RUNNER_TEMP, the folder of every checkout of the job, the folders of the
 * step's files, and on a self-hosted runner its own folder (it holds `.runner`, `.credentials`,
 * `.credentials_rsaparams` and `.env`; `_work` lies inside it).
 */
export function hiddenFolders(env: NodeJS.ProcessEnv): string[] {
  const workspace = env.RUNNER_WORKSPACE;
  const candidates = [env.HOME, env.RUNNER_TEMP, workspace && path.dirname(workspace)];
  for (const name of STEP_FILES) {
    const file = env[name];
    if (file) candidates.push(path.dirname(file));
  }
  if (workspace && path.isAbsolute(workspace)) {
    const runnerRoot = path.dirname(path.dirname(workspace));
    if (existsSync(path.join(runnerRoot, '.runner'))) candidates.push(runnerRoot);
  }
  const found = candidates.filter((d): d is string => !!d && path.isAbsolute(d) && d !== '/' && existsSync(d));
  return [...new Set(found.map((d) => path.resolve(d)))];
}
