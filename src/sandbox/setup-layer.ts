// What `setup` wrote in the HOME view, kept for later calls as read-only layers below each call's
// own (home-view.ts). Each setup command's call leaves its upper layer; that layer passes the
// view's rules (tool-rules.ts) as the runner's HOME does: a credential is dropped, a registry
// configuration becomes its copy stripped of credentials (or is dropped), git's configuration is
// dropped (the view has its own, and git's holds credentials and commands). What is left is split
// in two: the caches and tool folders of SETUP_CACHES, and the rest.
//
// Verify commands, hooks, the head's test run and the confirmer's proof run the PR's code anyway:
// they see both parts. The fixer's and the confirmer's calls run an agent CLI that holds a model key
// and runs before its agent chooses to run anything of the project: they see the caches only, so
// nothing setup wrote (a `~/.bashrc`, a `.pth` file in Python's user site-packages, a program in
// `~/.local/bin` found on PATH before the CLI, an agent CLI's settings) runs in their call. A
// read-only agent's call sees none of it. A call writes above these layers, never into them: they
// sit in the sandbox's own folder on disk (its 0700 base, which no call can enter; the disk's floor
// holds for them as for every writing call), and go when setup runs again, at the run's end, or
// with that folder in the post step after a killed run.
import { mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { plainBelow, verdictOf, type HomeViewPlan } from './home-view.js';
import { asRoot, mustAsRoot, type Privilege } from './privilege.js';
import { stripCredentials, type StripFormat } from './strip-credentials.js';
import { bareNameVerdict, type Verdict } from './tool-rules.js';

/** What a call sees of setup's layers: setup's own calls add to them (`record`, seeing what came before). */
export type SetupHomeUse = 'record' | 'whole' | 'caches';

/**
 * The caches and tool folders (below HOME, at their default places) a call that holds a model key
 * sees of setup's layers: content a tool reads when a command asks it to, never at a CLI's start.
 * Maven's settings are not among them: only its repository is a cache.
 */
export const SETUP_CACHES: readonly string[] = [
  '.npm',
  'go/pkg/mod',
  '.cargo/registry',
  '.m2/repository',
  '.cache/pip',
];

/** Dropped from what setup wrote whatever its verdict: git's configuration (the view writes its own). */
const GIT_CONFIG: readonly string[] = ['.gitconfig', '.config/git'];

/**
 * The most the paths of setup's layers may take in a call's overlay options (the kernel takes a page,
 * 4096 bytes, for all of them, the run's layer, HOME and the call's own among them): some 25 setup
 * commands that each write in HOME.
 */
const MAX_LAYER_CHARS = 2500;

/** A registry configuration larger than this is no hand-written one: dropped (home-view.ts does the same). */
const REGISTRY_FILE_MAX_BYTES = 256 * 1024;

/** One entry of a setup call's upper layer, as `find -printf '%y %s %P'` lists it (parents first). */
export interface LayerEntry {
  type: string;
  size: number;
  rel: string;
}

/** What becomes of a setup call's upper layer. */
interface SetupSorting {
  /** Entries removed, with all they hold (credentials, git's configuration, sockets and pipes). */
  drop: string[];
  /** Registry configurations replaced by their copy stripped of credentials (dropped where that fails). */
  strip: { rel: string; format: StripFormat }[];
  /** The folders of SETUP_CACHES the layer holds, moved to the caches part. */
  caches: string[];
}

/** Sorts a setup call's upper layer by the view's rules for `plan` (the runner's HOME). */
export function sortSetupEntries(plan: HomeViewPlan, entries: readonly LayerEntry[]): SetupSorting {
  const out: SetupSorting = { drop: [], strip: [], caches: [] };
  const keptDirs = new Set<string>(['']);
  // Folders below which no rule names anything: their entries need only their bare names' verdicts.
  const plain = new Set<string>();
  let droppedDir: string | null = null;
  for (const e of entries) {
    // find lists a folder's entries right after it: below a dropped one, skip until they end.
    if (droppedDir !== null && e.rel.startsWith(`${droppedDir}/`)) continue;
    droppedDir = null;
    const parent = path.dirname(e.rel) === '.' ? '' : path.dirname(e.rel);
    const v: Verdict = plain.has(parent)
      ? (bareNameVerdict(path.basename(e.rel)) ?? { class: 'cache' })
      : verdictOf(plan, e.rel);
    const drop = (): void => {
      out.drop.push(e.rel);
      if (e.type === 'd') droppedDir = e.rel;
    };
    const entry = 'entry' in v ? v.entry : undefined;
    // Whiteouts ('c') hide what is below them and stay; sockets, pipes and doors are never shown.
    if (GIT_CONFIG.some((g) => inside(e.rel, g)) || !'fdlc'.includes(e.type) || v.class === 'credential') drop();
    else if (v.class === 'registry') {
      if (e.type === 'f' && entry?.strip && e.size <= REGISTRY_FILE_MAX_BYTES) {
        out.strip.push({ rel: e.rel, format: entry.strip });
      } else drop();
    } else if (e.type === 'd' && keptDirs.has(parent)) {
      keptDirs.add(e.rel);
      if (plain.has(parent) || plainBelow(plan, e.rel)) plain.add(e.rel);
      if (SETUP_CACHES.includes(e.rel)) out.caches.push(e.rel);
    }
  }
  return out;
}

/** One setup call's layer: what it wrote, sorted, in two folders. */
interface Layer {
  caches: string;
  rest: string;
  /** False when the layer holds none of SETUP_CACHES: then a call that sees only caches skips it. */
  hasCaches: boolean;
}

/** One setup run's layers, oldest first; removed once setup runs again and no call mounts them. */
interface Generation {
  dir: string;
  layers: Layer[];
  users: number;
  retired: boolean;
}

/** What one setup call's layer kept, for the log. */
export interface RecordedLayer {
  dropped: string[];
  stripped: string[];
  caches: string[];
}

/** Setup's layers of the runner's HOME over a run (one per sandbox whose calls see that HOME). */
export class SetupHome {
  private current: Generation | null = null;
  private runs = 0;
  private layersMade = 0;

  constructor(
    private readonly privilege: Privilege,
    /** The sandbox user: owns what setup wrote, and the folders made above a cache. */
    private readonly owner: { uid: number; gid: number },
    private readonly plan: HomeViewPlan,
    /** The sandbox's own folder (0700, the action's user): the layers sit below it. */
    private readonly base: string,
  ) {}

  /** The layers a call mounts between its own and the run's (topmost first), and their release after its unmount. */
  lend(use: SetupHomeUse): { lowers: string[]; release: () => Promise<void> } {
    const gen = this.current;
    if (!gen || gen.layers.length === 0) return { lowers: [], release: async () => undefined };
    gen.users++;
    // A layer's caches above its rest: a folder setup made opaque above a cache (`~/.cache`) must
    // not hide the cache moved out of it.
    const lowers = [...gen.layers]
      .reverse()
      .flatMap((l) => (use === 'caches' ? (l.hasCaches ? [l.caches] : []) : [l.caches, l.rest]));
    let released = false;
    return {
      lowers,
      release: async () => {
        if (released) return;
        released = true;
        gen.users--;
        await this.removeIfUnused(gen);
      },
    };
  }

  /**
   * Makes a setup call's upper layer (its overlay unmounted, every process of the call gone) one of
   * setup's layers. No process of the sandbox user runs meanwhile, and the walk lists each entry
   * with its type without following links: root acts on real folders of the layer only.
   */
  async record(upper: string): Promise<RecordedLayer | null> {
    const gen = (this.current ??= this.newGeneration());
    const dir = path.join(gen.dir, String(++this.layersMade));
    const paths = [...gen.layers.flatMap((l) => [l.caches, l.rest]), path.join(dir, 'caches'), path.join(dir, 'rest')];
    if (paths.join(':').length > MAX_LAYER_CHARS) {
      throw new Error(`setup's layers would not fit in an overlay's options (${gen.layers.length} kept already)`);
    }
    const scratch = await mkdtemp(path.join(this.base, 'setup-sort-'));
    try {
      const entries = await this.list(upper, path.join(scratch, 'list'));
      // Only whiteouts (HOME's new top-level names the call's view hid): nothing written to keep.
      if (entries.every((e) => e.type === 'c')) return null;
      const sorting = sortSetupEntries(this.plan, entries);
      const stripped: string[] = [];
      const drop = [...sorting.drop];
      for (const [i, { rel, format }] of sorting.strip.entries()) {
        const text = await asRoot(this.privilege, ['cat', '--', path.join(upper, rel)]);
        const copy = text.code === 0 ? stripCredentials(format, text.stdout) : null;
        if (copy === null) {
          drop.push(rel);
          continue;
        }
        const file = path.join(scratch, `strip-${i}`);
        await writeFile(file, copy, { mode: 0o644 });
        const { uid, gid } = this.owner;
        await mustAsRoot(this.privilege, [
          'sh',
          '-c',
          REPLACE,
          'sh',
          file,
          path.join(upper, rel),
          String(uid),
          String(gid),
        ]);
        stripped.push(rel);
      }
      for (let i = 0; i < drop.length; i += 500) {
        const some = drop.slice(i, i + 500).map((rel) => path.join(upper, rel));
        await mustAsRoot(this.privilege, ['rm', '-rf', '--one-file-system', '--', ...some]);
      }
      const owns = `${this.owner.uid}:${this.owner.gid}`;
      mkdirSync(dir, { mode: 0o700 });
      await mustAsRoot(this.privilege, ['sh', '-c', SPLIT, 'sh', upper, dir, owns, ...sorting.caches]);
      gen.layers.push({
        caches: path.join(dir, 'caches'),
        rest: path.join(dir, 'rest'),
        hasCaches: sorting.caches.length > 0,
      });
      return { dropped: sorting.drop, stripped, caches: sorting.caches };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** Setup runs again: its earlier layers go (once no call mounts them), and its calls start anew. */
  async forget(): Promise<void> {
    const gen = this.current;
    this.current = null;
    if (!gen) return;
    gen.retired = true;
    await this.removeIfUnused(gen);
  }

  private newGeneration(): Generation {
    const dir = path.join(this.base, `setup-home-${++this.runs}`);
    mkdirSync(dir, { mode: 0o700 });
    return { dir, layers: [], users: 0, retired: false };
  }

  private async removeIfUnused(gen: Generation): Promise<void> {
    if (!gen.retired || gen.users > 0) return;
    await mustAsRoot(this.privilege, ['rm', '-rf', '--one-file-system', '--', gen.dir]);
  }

  /** The layer's entries, parents first; written to a file (a module cache lists more than a pipe's buffer). */
  private async list(upper: string, file: string): Promise<LayerEntry[]> {
    await mustAsRoot(this.privilege, ['sh', '-c', LIST, 'sh', upper, file]);
    const text = await readFile(file, 'utf8');
    return text
      .split('\0')
      .filter(Boolean)
      .map((line) => {
        const [type, size] = line.split(' ', 2) as [string, string];
        return { type, size: Number(size), rel: line.slice(type.length + size.length + 2) };
      });
  }
}

// Written by root into the sandbox's folder, then readable by the action's user.
const LIST = 'set -e\nfind "$1" -mindepth 1 -printf "%y %s %P\\0" > "$2"\nchmod 0644 "$2"';

// A registry configuration's stripped copy in place of what setup wrote (a new file: a hard link
// setup made to it keeps its own content).
const REPLACE = 'set -e\nrm -f -- "$2"\ninstall -m 0644 -o "$3" -g "$4" -- "$1" "$2"';

// The caches part: each cache folder moved there, below folders made as the view makes its own
// (the sandbox user's, 0755); the rest is what stays of the layer.
const SPLIT = [
  'set -e',
  'upper=$1 dir=$2 owner=$3',
  'shift 3',
  'install -d -m 0755 -o "${owner%:*}" -g "${owner#*:}" "$dir/caches"',
  'for rel do',
  '  parent=$(dirname -- "$rel")',
  '  p=$dir/caches',
  '  [ "$parent" = . ] || for part in $(echo "$parent" | tr / " "); do',
  '    p=$p/$part',
  '    [ -d "$p" ] || install -d -m 0755 -o "${owner%:*}" -g "${owner#*:}" "$p"',
  '  done',
  '  mv -- "$upper/$rel" "$dir/caches/$rel"',
  'done',
  'mv -- "$upper" "$dir/rest"',
].join('\n');

function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(`${dir}/`);
}
