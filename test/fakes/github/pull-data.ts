// A PR's shas, files and diff: live from originDir when there is one, else the static input.
import { fakeSha } from './ids.js';
import type { GitFile, OriginRepo } from './git.js';
import type { FakeState, PullState } from './state.js';

export interface PullData {
  headSha: string;
  baseSha: string;
  files: GitFile[];
  diff: string;
  commits: number;
}

export class PullDataSource {
  /** Last head seen per PR: GitHub keeps showing it after the head branch is deleted. */
  private readonly lastHead = new Map<number, string>();

  constructor(
    private readonly state: FakeState,
    private readonly origin: OriginRepo | null,
    private readonly forkDirs: Record<string, string> = {},
  ) {}

  async shas(pull: PullState): Promise<{ headSha: string; baseSha: string }> {
    if (!this.origin)
      return { headSha: this.state.staticSha(pull, 'head'), baseSha: this.state.staticSha(pull, 'base') };
    const fork = pull.headRepoFullName.toLowerCase() !== this.state.fullName.toLowerCase();
    const forkDir = fork ? this.forkDirs[pull.headRepoFullName] : undefined;
    if (forkDir) await this.origin.mirror(forkDir, `refs/heads/${pull.headRef}`, `refs/pull/${pull.number}/head`);
    // A fork's branch is not in the base repo; GitHub mirrors it as refs/pull/N/head.
    const candidates = fork
      ? [`refs/pull/${pull.number}/head`, `refs/heads/${pull.headRef}`]
      : [`refs/heads/${pull.headRef}`];
    let headSha: string | null = null;
    for (const ref of candidates) {
      headSha = await this.origin.revParse(ref);
      if (headSha) break;
    }
    headSha = headSha ?? this.lastHead.get(pull.number) ?? pull.headSha ?? null;
    if (!headSha) throw new Error(`fake GitHub: PR #${pull.number} head ${pull.headRef} is not in ${this.origin.dir}`);
    // The head the PR had when GitHub first saw it got its pull_request CI (a later push by the
    // action's GITHUB_TOKEN starts none: ci.ts).
    if (!this.lastHead.has(pull.number)) await this.state.ci.trigger(headSha, pull.headRef, 'pull_request');
    this.lastHead.set(pull.number, headSha);
    const baseSha = (await this.origin.revParse(`refs/heads/${pull.baseRef}`)) ?? pull.baseSha;
    if (!baseSha) throw new Error(`fake GitHub: PR #${pull.number} base ${pull.baseRef} is not in ${this.origin.dir}`);
    return { headSha, baseSha };
  }

  async load(pull: PullState): Promise<PullData> {
    const { headSha, baseSha } = await this.shas(pull);
    if (!this.origin) return { headSha, baseSha, ...this.staticFiles(pull), commits: 1 };
    const [{ diff, files }, commits] = await Promise.all([
      this.origin.compare(baseSha, headSha),
      this.origin.commitCount(baseSha, headSha),
    ]);
    return { headSha, baseSha, files, diff, commits };
  }

  private staticFiles(pull: PullState): { files: GitFile[]; diff: string } {
    const files = (pull.files ?? []).map((f) => ({
      filename: f.filename,
      status: f.status ?? 'modified',
      additions: f.additions ?? 0,
      deletions: f.deletions ?? 0,
      sha: f.status === 'removed' ? null : fakeSha(`${pull.number}:${f.filename}`),
      ...(f.patch !== undefined ? { patch: f.patch } : {}),
      ...(f.previousFilename ? { previousFilename: f.previousFilename } : {}),
    }));
    return { files, diff: pull.diff ?? '' };
  }
}
