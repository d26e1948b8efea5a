// The merge base of a PR's base and head commits, fetched into the checkout when it lacks
// them. actions/checkout clones one commit deep by default, so the base commit, or the
// history joining it to the head, is often missing. Fetches go through the runner, which
// authenticates network commands with GIT_CONFIG_* variables: the token never reaches disk.
import type { Git } from './runner.js';
import { isShallow, resolveCommit } from './state.js';

/** Depth of the first fetch of a missing commit into a shallow clone (as ensureAtPrHead). */
const FIRST_DEPTH = 50;
/**
 * Then `--deepen` by these steps (git fetch: "the number of commits from the current shallow
 * boundary"), about 1,600 commits in all, before giving up on shallow and unshallowing.
 * `--shallow-exclude=<base branch>` is no help: it stops the head's history just above the
 * fork point, so `git merge-base` still finds nothing (checked with git 2.39).
 */
const DEEPEN_STEPS = [50, 100, 200, 400, 800];

export interface MergeBaseResult {
  /** The merge base, or null when the histories share no commit (then diff against the base). */
  mergeBase: string | null;
  /** What was fetched, for the log. */
  fetched: string[];
}

/**
 * Merge bases found, per checkout: two commits' merge base never changes, and objects are not
 * removed during a run, so each round after the first asks git nothing for it.
 */
const found = new WeakMap<Git, Map<string, string>>();

/** Finds `git merge-base base head`, fetching from origin (shallow where it can) until it exists. */
export async function ensureMergeBase(git: Git, baseSha: string, headSha: string): Promise<MergeBaseResult> {
  const shas = [baseSha, headSha].map((s) => s.toLowerCase());
  for (const sha of shas) {
    if (!/^[0-9a-f]{40}$/.test(sha)) throw new Error(`not a full commit sha: ${JSON.stringify(sha)}`);
  }
  const [base, head] = shas as [string, string];
  const fetched: string[] = [];
  const fetch = async (extra: string[], what: string[]) => {
    await git(['fetch', '--no-tags', '--no-recurse-submodules', '--no-write-fetch-head', ...extra, 'origin', ...what]);
    fetched.push(`${extra.join(' ') || 'full'} ${what.map((s) => s.slice(0, 12)).join(' ')}`.trim());
  };

  const key = `${base} ${head}`;
  const known = found.get(git)?.get(key);
  if (known) return { mergeBase: known, fetched };

  const resolved = await Promise.all(shas.map((sha) => resolveCommit(git, sha)));
  const missing = shas.filter((_sha, i) => resolved[i] === null);
  // In a complete clone a plain fetch brings only the missing objects; --depth would make it shallow.
  if (missing.length) await fetch((await isShallow(git)) ? [`--depth=${FIRST_DEPTH}`] : [], missing);

  let result = await mergeBase(git, base, head);
  for (const step of DEEPEN_STEPS) {
    if (result || !(await isShallow(git))) break;
    await fetch([`--deepen=${step}`], [base, head]);
    result = await mergeBase(git, base, head);
  }
  if (!result && (await isShallow(git))) {
    await fetch(['--unshallow'], [base, head]);
    result = await mergeBase(git, base, head);
  }
  if (result) found.set(git, (found.get(git) ?? new Map<string, string>()).set(key, result));
  return { mergeBase: result, fetched };
}

/** `git merge-base` exits 1 with no output when the (possibly shallow) histories do not meet. */
async function mergeBase(git: Git, a: string, b: string): Promise<string | null> {
  const r = await git(['merge-base', a, b], { allowFail: true });
  return r.code === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}
