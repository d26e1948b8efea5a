// Live reads from the bare repository that plays the base repo, so a push by the action
// moves the PR head exactly as it would on GitHub.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export interface GitFile {
  filename: string;
  status: string;
  additions: number;
  deletions: number;
  /** Blob sha at the head side; null for a removed file. */
  sha: string | null;
  patch?: string;
  previousFilename?: string;
}

export interface GitPath {
  type: 'file' | 'dir';
  sha: string;
  content?: Buffer;
  entries?: { type: 'file' | 'dir' | 'submodule'; name: string; sha: string; size: number }[];
}

const STATUS: Record<string, string> = {
  A: 'added',
  D: 'removed',
  M: 'modified',
  R: 'renamed',
  C: 'copied',
  T: 'changed',
};
const ZERO_SHA = /^0{40}$/;

export class OriginRepo {
  private readonly cache = new Map<string, Promise<{ diff: string; files: GitFile[] }>>();

  constructor(readonly dir: string) {}

  /** Runs git on the bare repo with the developer's and the system's config shut out. */
  private async git(args: string[], encoding: 'utf8' | 'buffer' = 'utf8'): Promise<string | Buffer> {
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
    const { stdout } = await exec('git', ['--git-dir', this.dir, '-c', 'core.quotepath=false', ...args], {
      env,
      encoding,
      maxBuffer: 256 * 1024 * 1024,
    });
    return stdout;
  }

  /** Copies a ref of another repository (a fork) into this one, as GitHub keeps refs/pull/N/head. */
  async mirror(fromDir: string, fromRef: string, toRef: string): Promise<void> {
    await this.git(['fetch', '--quiet', '--no-tags', fromDir, `+${fromRef}:${toRef}`]).catch(() => undefined);
  }

  async revParse(ref: string): Promise<string | null> {
    if (ref.startsWith('-')) return null;
    try {
      return (await this.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).toString().trim() || null;
    } catch {
      return null;
    }
  }

  async commitCount(base: string, head: string): Promise<number> {
    return Number((await this.git(['rev-list', '--count', `${base}..${head}`])).toString().trim());
  }

  /** `git diff base...head` (from the merge base, like GitHub) and the per-file view of it. */
  compare(base: string, head: string): Promise<{ diff: string; files: GitFile[] }> {
    const key = `${base}...${head}`;
    let hit = this.cache.get(key);
    if (!hit) {
      hit = this.computeCompare(base, head);
      this.cache.set(key, hit);
      hit.catch(() => this.cache.delete(key));
    }
    return hit;
  }

  private async computeCompare(base: string, head: string): Promise<{ diff: string; files: GitFile[] }> {
    const range = `${base}...${head}`;
    const [raw, numstat, diff] = await Promise.all([
      this.git(['diff', '--raw', '-z', '-M', '--no-abbrev', range]),
      this.git(['diff', '--numstat', '-z', '-M', range]),
      this.git(['diff', '--no-color', '--no-ext-diff', '-M', range]),
    ]).then((outs) => outs.map(String) as [string, string, string]);
    const counts = parseNumstat(numstat);
    const patches = diff.split(/^(?=diff --git )/m).filter((b) => b.startsWith('diff --git '));
    const files = parseRaw(raw).map((f, i) => {
      const c = counts[i] ?? { additions: 0, deletions: 0 };
      const at = patches[i]?.indexOf('\n@@') ?? -1;
      const patch = at >= 0 ? patches[i]!.slice(at + 1).replace(/\n$/, '') : undefined;
      return { ...f, ...c, ...(patch !== undefined ? { patch } : {}) };
    });
    return { diff, files };
  }

  /** A file or directory at a ref, or null when the path does not exist there. */
  async readPath(ref: string, path: string): Promise<GitPath | null> {
    const clean = path.replace(/^\/+|\/+$/g, '');
    if (ref.startsWith('-') || clean.split('/').includes('..')) return null;
    const spec = `${ref}:${clean}`;
    let type: string;
    let sha: string;
    try {
      type = String(await this.git(['cat-file', '-t', spec])).trim();
      sha = String(await this.git(['rev-parse', spec])).trim();
    } catch {
      return null;
    }
    if (type === 'blob')
      return { type: 'file', sha, content: (await this.git(['cat-file', 'blob', sha], 'buffer')) as Buffer };
    if (type !== 'tree') return null;
    const listing = String(await this.git(['ls-tree', '-z', '-l', sha]));
    const entries = listing
      .split('\0')
      .filter(Boolean)
      .map((line) => {
        const [meta = '', name = ''] = line.split('\t');
        const [, kind, entrySha = '', size] = meta.split(/\s+/);
        const t = kind === 'tree' ? 'dir' : kind === 'commit' ? 'submodule' : 'file';
        return { type: t as 'file' | 'dir' | 'submodule', name, sha: entrySha, size: Number(size) || 0 };
      });
    return { type: 'dir', sha, entries };
  }
}

/** `--raw -z`: ":old new oldsha newsha STATUS\0path\0[newpath\0]". */
function parseRaw(out: string): Omit<GitFile, 'additions' | 'deletions'>[] {
  const parts = out.split('\0');
  const files: Omit<GitFile, 'additions' | 'deletions'>[] = [];
  for (let i = 0; i < parts.length; i++) {
    const meta = parts[i];
    if (!meta?.startsWith(':')) continue;
    const [, , , newSha = '', status = 'M'] = meta.split(' ');
    const letter = status.charAt(0);
    const twoPaths = letter === 'R' || letter === 'C';
    const first = parts[++i] ?? '';
    const second = twoPaths ? (parts[++i] ?? '') : undefined;
    files.push({
      filename: second ?? first,
      status: STATUS[letter] ?? 'modified',
      sha: ZERO_SHA.test(newSha) ? null : newSha,
      ...(twoPaths ? { previousFilename: first } : {}),
    });
  }
  return files;
}

/** `--numstat -z`: "add\tdel\tpath\0" or, for renames, "add\tdel\t\0old\0new\0"; binary is "-". */
function parseNumstat(out: string): { additions: number; deletions: number }[] {
  const parts = out.split('\0');
  const counts: { additions: number; deletions: number }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(parts[i] ?? '');
    if (!m) continue;
    counts.push({ additions: Number(m[1]) || 0, deletions: Number(m[2]) || 0 });
    if (m[3] === '') i += 2;
  }
  return counts;
}
