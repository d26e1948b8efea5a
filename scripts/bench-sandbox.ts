// The sandbox's cost per call: one `/bin/true` run the way verify commands and hooks run (write
// access to the work tree) and the way reviewers run (a context folder to read, a state folder of
// their own), median of 21 calls each; then both again with the runner's HOME shown through an
// overlay of each call's own (src/sandbox/home-view.ts: this machine's HOME, its tool folders
// walked once before the first call). Needs root or passwordless sudo (else it says so).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSandbox, type CallAccess, type Sandbox } from '../src/sandbox/sandbox.js';

const CALLS = 21;

export async function sandboxBenchRows(): Promise<[string, string, string][]> {
  const top = mkdtempSync(path.join(tmpdir(), 'bench-sandbox-'));
  const repo = path.join(top, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  for (let i = 0; i < 200; i++) writeFileSync(path.join(repo, `f${i}.txt`), `${i}\n`);
  execFileSync('git', ['-C', repo, 'add', '.']);
  const context = path.join(top, 'context');
  const state = path.join(top, 'state');
  mkdirSync(context, { mode: 0o700 });
  mkdirSync(state, { mode: 0o700 });
  // Without HOME: each call gets an empty HOME of its own, as before the HOME view.
  const { HOME: _home, ...withoutHome } = process.env;
  const rows: [string, string, string][] = [];
  for (const [label, env] of [
    ['', withoutHome],
    [`, runner's HOME shown (${process.env.HOME})`, process.env],
  ] as const) {
    const sandbox = await createSandbox('auto', repo, { env });
    try {
      if (!sandbox.user) return [['sandboxed call', 'n/a', `no sandbox here: ${sandbox.reason}`]];
      rows.push(...(await timeCalls(sandbox, repo, context, state, label)));
    } finally {
      await sandbox.close();
    }
  }
  rmSync(top, { recursive: true, force: true });
  return rows;
}

async function timeCalls(
  sandbox: Sandbox,
  repo: string,
  context: string,
  state: string,
  label: string,
): Promise<[string, string, string][]> {
  const time = async (access: CallAccess): Promise<number> => {
    const samples: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const t = performance.now();
      const r = await sandbox.run(
        { command: '/bin/true', args: [], cwd: repo, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 30_000 },
        access,
      );
      if (r.exitCode !== 0) throw new Error(`sandboxed /bin/true exited ${r.exitCode}: ${r.stderr}`);
      samples.push(performance.now() - t);
    }
    return samples.sort((a, b) => a - b)[CALLS >> 1]!;
  };
  const writer = await time({ workTree: repo });
  const reader = await time({ readable: [context], owned: [state] });
  const how = `median of ${CALLS}, ${process.getuid?.() === 0 ? 'as root' : 'through sudo'}`;
  return [
    [`sandboxed call, work tree writable (verify, hooks; 200 files)${label}`, `${writer.toFixed(0)} ms`, how],
    [`sandboxed call, read-only (reviewers)${label}`, `${reader.toFixed(0)} ms`, how],
  ];
}
