// What the project's own commands (verify commands, hooks, a confirmer's test) change in the
// checkout is never committed: a fix commit holds what the fixer and the confirmer changed. Each
// round's commit takes every change in the work tree (commit.ts), so what such a command leaves
// (an `npm install` writing a package-lock.json the project does not keep, `coverage/`, build
// output the project does not ignore, a formatter's rewrite) is put back after it: a tracked file
// to HEAD's content, a new file removed. Ignored files stay (a `node_modules/` a verify command
// installed): `git add --all` never takes them.
import { literalPathspec } from './commit.js';
import type { Git } from './runner.js';
import { statusPorcelain } from './state.js';

/** The checkout's changed paths now; what putBackSince leaves alone. */
export async function changedPaths(git: Git): Promise<ReadonlySet<string>> {
  return new Set(await statusPorcelain(git));
}

/**
 * Puts back every path changed since `before` (changedPaths): restored from HEAD when HEAD has
 * it, else removed. Returns those paths. Putting back a `.gitignore` can show files it hid, and
 * removing a new folder's `.gitignore` the files it hid there: each pass looks again.
 */
export async function putBackSince(git: Git, before: ReadonlySet<string>): Promise<string[]> {
  const putBack: string[] = [];
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const fresh = (await statusPorcelain(git)).filter((p) => !before.has(p) && !putBack.includes(p));
    if (fresh.length === 0) break;
    const inHead = await pathsInHead(git, fresh);
    // New entries first: a link a command put where a tracked folder was goes before git writes there.
    const created = fresh.filter((p) => !inHead.has(p));
    for (const batch of batches(created)) await git(['clean', '-f', '-q', '--', ...batch.map(literalPathspec)]);
    for (const batch of batches([...inHead])) {
      await git(['restore', '--source=HEAD', '--staged', '--worktree', '--', ...batch.map(literalPathspec)]);
    }
    putBack.push(...fresh);
  }
  return putBack;
}

/**
 * Puts back the tracked files changed since `before` (a lock file an install rewrote) and leaves
 * every new entry where it is: what `setup` creates is the installation the agents work on
 * (commands/setup.ts records it and fix commits leave it out). Returns the paths put back.
 */
export async function putBackTrackedSince(git: Git, before: ReadonlySet<string>): Promise<string[]> {
  const fresh = (await statusPorcelain(git)).filter((p) => !before.has(p));
  const inHead = [...(await pathsInHead(git, fresh))];
  for (const batch of batches(inHead)) {
    await git(['restore', '--source=HEAD', '--staged', '--worktree', '--', ...batch.map(literalPathspec)]);
  }
  return inHead;
}

/**
 * Runs the project's own commands (`what`: "verify", "the after-fix hook"), then puts back what
 * they changed in the checkout and logs it. A failure of the commands is rethrown as it was.
 */
export async function putBackAfter<T>(git: Git, what: string, log: (line: string) => void, run: () => Promise<T>) {
  const before = await changedPaths(git);
  const putBack = async (): Promise<void> => {
    const paths = await putBackSince(git, before);
    if (paths.length === 0) return;
    log(`${what} changed the checkout; put back, never committed: ${firstPaths(paths)}`);
  };
  let result: T;
  try {
    result = await run();
  } catch (e) {
    await putBack().catch(() => undefined);
    throw e;
  }
  await putBack();
  return result;
}

/** A command that keeps re-creating what is put back is not chased further. */
const MAX_PASSES = 3;

async function pathsInHead(git: Git, paths: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const batch of batches(paths)) {
    // Literal: a file named like pathspec magic (`:(exclude)x`) is a name, nothing more.
    const r = await git(['ls-tree', '-r', '-z', '--name-only', '--full-tree', 'HEAD', '--', ...batch], {
      env: { GIT_LITERAL_PATHSPECS: '1' },
    });
    for (const p of r.stdout.split('\0')) if (p) found.add(p);
  }
  // ls-tree matches its paths as prefixes: keep exact names only.
  return new Set(paths.filter((p) => found.has(p)));
}

/** Argument lists of at most 500 paths. */
function* batches(paths: readonly string[]): Generator<string[]> {
  for (let i = 0; i < paths.length; i += 500) yield paths.slice(i, i + 500);
}

/** The first ten paths for a log line, and how many there are when more. */
export function firstPaths(paths: readonly string[]): string {
  return paths.slice(0, 10).join(', ') + (paths.length > 10 ? `, … (${paths.length} paths)` : '');
}
