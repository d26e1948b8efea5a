// A trusted command line (a verify command or hook from the workflow or the base branch's config,
// the `command` agent's command line from the workflow) may run a program kept outside the
// checkout, e.g. a script in RUNNER_TEMP that an earlier step wrote; and a variable the workflow
// passes on may name a file (a CA bundle, a log the command writes). Each absolute path they name
// is shown to the call as it is (its owner and mode decide what the call may do), that path
// alone, or the folder that would hold it when it does not exist yet. Never used for a command
// an agent chose.
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The absolute paths a shell command line (or a variable's value) names, or their existing folders. */
export function namedPaths(text: string): string[] {
  const words = text.split(/[\s'"`;|&()<>=,:]+/);
  const found = words.filter((w) => w.startsWith('/') && w.length > 1).map((w) => path.resolve(w));
  const shown = found.map((p) => (existsSync(p) ? p : path.dirname(p))).filter((p) => p !== '/' && existsSync(p));
  return [...new Set(shown)];
}
