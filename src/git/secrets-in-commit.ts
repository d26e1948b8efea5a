// A fix commit must not carry a secret the run knows (a setup-env or verify-env value, a model
// key, the token's forms, a value the secret rules recognised): setup and the fixer's commands run
// with such values in reach (an install writes `.npmrc` with the registry token it was given, a
// test writes its environment to a snapshot), and the push is made with the action's own token.
// Each file the commit changes is searched in the commit's tree as it would be pushed, binary
// files included; the values go to git on its stdin, never on a command line.
import { literalPathspec } from './commit.js';
import type { Git } from './runner.js';

/** Shortest value searched: a shorter one would match by chance (secret-env.ts keeps none shorter either). */
const MIN_CHARS = 8;

/** The files of `commit`, changed since `baseSha`, that hold one of `values`, sorted. */
export async function secretsInCommit(
  git: Git,
  baseSha: string,
  commit: string,
  values: readonly string[],
): Promise<string[]> {
  // A multi-line value (a key block) is searched by each of its long lines.
  const patterns = [...new Set(values.flatMap((v) => v.split('\n')).map((v) => v.trim()))].filter(
    (v) => v.length >= MIN_CHARS,
  );
  if (patterns.length === 0) return [];
  const diff = await git([
    'diff',
    '--no-ext-diff',
    '--no-textconv',
    '--name-only',
    '-z',
    '--no-renames',
    '--diff-filter=AMCT',
    baseSha,
    commit,
  ]);
  const changed = diff.stdout.split('\0').filter(Boolean);
  const found = new Set<string>();
  for (let i = 0; i < changed.length; i += 500) {
    const batch = changed.slice(i, i + 500).map(literalPathspec);
    const args = ['grep', '--no-textconv', '-a', '-F', '-l', '-z', '-f', '-', commit, '--', ...batch];
    const r = await git(args, { input: `${patterns.join('\n')}\n`, allowFail: true });
    // 1: no match.
    if (r.code > 1) throw new Error(`searching the fix commit for secrets failed: ${r.stderr.trim()}`);
    for (const hit of r.stdout.split('\0')) if (hit) found.add(hit.slice(commit.length + 1));
  }
  return [...found].sort();
}
