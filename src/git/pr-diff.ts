// A PR's changed files and their patches, read from the checkout with `git diff` between the
// merge base and the head (what GitHub shows as the PR's diff). The API's diff media type
// refuses PRs past 300 files or 20,000 lines, and its file list stops at 3,000 files
// (https://docs.github.com/en/repositories/creating-and-managing-repositories/repository-limits).
import type { PrFile } from '../domain/pull-request.js';
import { GitError, type Git } from './runner.js';

/**
 * Options that pin the output whatever the repository's config says: no external diff or
 * textconv (the checkout's config is not trusted), renames detected (`diff.renames` may be
 * off), fixed prefixes and context, no order file. Binary files stay "Binary files … differ".
 */
const DIFF_OPTIONS = [
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
  '--find-renames',
  '--no-relative',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--unified=3',
  '--inter-hunk-context=0',
  '-O/dev/null',
];
/** Paths as they are (no octal quoting of non-ASCII names in patch headers); pathspecs literal. */
const GLOBAL_OPTIONS = ['-c', 'core.quotePath=false', '--literal-pathspecs'];
/** Pathspecs per `git diff` call: keeps argv far below the kernel's limit on any PR size. */
const PATHS_PER_CALL = 500;

const STATUS: Record<string, string> = {
  A: 'added',
  D: 'removed',
  M: 'modified',
  R: 'renamed',
  C: 'copied',
  T: 'changed',
};

export interface DiffRange {
  /** The merge base (or the base commit when the histories share none). */
  from: string;
  to: string;
}

/** Every changed file with status, rename source, line counts, and whether git sees it as binary. */
export async function listChangedFiles(git: Git, range: DiffRange): Promise<PrFile[]> {
  const args = ['diff', '--raw', '--numstat', '-z', '--no-abbrev', ...DIFF_OPTIONS, range.from, range.to, '--'];
  const r = await git([...GLOBAL_OPTIONS, ...args]);
  const { entries, rest } = readRaw(r.stdout);
  const counts = readNumstat(rest);
  if (counts.length !== entries.length) {
    throw new Error(`git diff: ${entries.length} raw entries but ${counts.length} numstat entries`);
  }
  return entries.map((e, i) => ({ ...e, ...counts[i]! }));
}

export interface Patches {
  /** Patch text by filename. */
  patches: Map<string, string>;
  /** Files whose patch git could not hand over: larger than the runner keeps of a command's output. */
  tooLarge: string[];
}

/**
 * The patch of each file in `files`; with `whole`, in one call with no pathspec (the files
 * are then every changed file). A rename's pathspec names both sides so git still pairs them.
 * A call whose output is over the runner's cap (a minified bundle of tens of MB, say) is split
 * in halves until the file responsible is alone; that file is left out instead of failing the round.
 */
export async function patchesOf(git: Git, range: DiffRange, files: PrFile[], whole = false): Promise<Patches> {
  const out: Patches = { patches: new Map(), tooLarge: [] };
  await collect(git, range, files, whole, out);
  return out;
}

async function collect(git: Git, range: DiffRange, files: PrFile[], whole: boolean, out: Patches): Promise<void> {
  if (files.length === 0) return;
  if (!whole && files.length > PATHS_PER_CALL) {
    for (const part of chunk(files, PATHS_PER_CALL)) await collect(git, range, part, false, out);
    return;
  }
  const got = await patchCall(git, range, whole ? null : files);
  if (got) {
    for (const [name, patch] of got) out.patches.set(name, patch);
  } else if (files.length === 1) {
    out.tooLarge.push(files[0]!.filename);
  } else {
    const mid = Math.ceil(files.length / 2);
    await collect(git, range, files.slice(0, mid), false, out);
    await collect(git, range, files.slice(mid), false, out);
  }
}

/** One `git diff --raw --patch` call; null when its output was over the runner's cap. */
async function patchCall(git: Git, range: DiffRange, files: PrFile[] | null): Promise<Map<string, string> | null> {
  const paths = (files ?? []).flatMap((f) => (f.previousFilename ? [f.previousFilename, f.filename] : [f.filename]));
  const args = ['diff', '--raw', '-z', '--patch', '--no-abbrev', ...DIFF_OPTIONS, range.from, range.to, '--'];
  let stdout: string;
  try {
    stdout = (await git([...GLOBAL_OPTIONS, ...args, ...paths])).stdout;
  } catch (e) {
    // Node's execFile kills the child and says "stdout maxBuffer length exceeded".
    if (e instanceof GitError && /maxBuffer length exceeded/.test(e.message)) return null;
    throw e;
  }
  const { entries, rest } = readRaw(stdout);
  const blocks = splitPatch(rest);
  // One "diff --git" block per file pair, in the raw section's order (mode-only and binary too).
  if (blocks.length !== entries.length) {
    throw new Error(`git diff: ${entries.length} files but ${blocks.length} patches`);
  }
  return new Map(entries.map((e, i) => [e.filename, blocks[i]!]));
}

type RawEntry = Pick<PrFile, 'filename' | 'status' | 'previousFilename'>;

/** `--raw -z`: ":oldmode newmode oldsha newsha STATUS\0path\0[newpath\0]"; returns what follows. */
function readRaw(out: string): { entries: RawEntry[]; rest: string } {
  const entries: RawEntry[] = [];
  let pos = 0;
  const field = (): string => {
    const end = out.indexOf('\0', pos);
    const value = out.slice(pos, end < 0 ? out.length : end);
    pos = end < 0 ? out.length : end + 1;
    return value;
  };
  while (out.startsWith(':', pos)) {
    const letter = (field().split(' ')[4] ?? 'M').charAt(0);
    const first = field();
    const twoPaths = letter === 'R' || letter === 'C';
    const second = twoPaths ? field() : undefined;
    const status = STATUS[letter] ?? 'modified';
    entries.push({ filename: second ?? first, status, ...(twoPaths ? { previousFilename: first } : {}) });
  }
  // With --patch an empty field separates the raw section from the patches.
  if (out.startsWith('\0', pos)) pos++;
  return { entries, rest: out.slice(pos) };
}

/** `--numstat -z`: "add\tdel\tpath\0", or "add\tdel\t\0old\0new\0" for a rename; "-\t-" for binary. */
function readNumstat(out: string): Pick<PrFile, 'additions' | 'deletions' | 'binary'>[] {
  const fields = out.split('\0');
  const counts: Pick<PrFile, 'additions' | 'deletions' | 'binary'>[] = [];
  for (let i = 0; i < fields.length; i++) {
    const m = /^(\d+|-)\t(\d+|-)\t([^]*)$/.exec(fields[i] ?? '');
    if (!m) continue;
    const binary = m[1] === '-';
    counts.push({ additions: Number(m[1]) || 0, deletions: Number(m[2]) || 0, ...(binary ? { binary: true } : {}) });
    if (m[3] === '') i += 2;
  }
  return counts;
}

/** Splits a patch into its per-file blocks. Content lines start with ' ', '+' or '-', so only headers match. */
function splitPatch(patch: string): string[] {
  if (!patch) return [];
  return patch.split(/^(?=diff --git )/m).filter((b) => b.startsWith('diff --git '));
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
