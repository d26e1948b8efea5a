// The sandbox's cost per call: one `/bin/true` run the way verify commands and hooks run (write
// access to the work tree) and the way reviewers run (a context folder to read, a state folder of
// their own), median of 21 calls each. Needs root or passwordless sudo (else it says so).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSandbox, type CallAccess } from '../src/sandbox/sandbox.js';

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
  const sandbox = await createSandbox('auto', repo);
  try {
    if (!sandbox.user) return [['sandboxed call', 'n/a', `no sandbox here: ${sandbox.reason}`]];
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
      ['sandboxed call, work tree writable (verify, hooks; 200 files)', `${writer.toFixed(0)} ms`, how],
      ['sandboxed call, read-only (reviewers)', `${reader.toFixed(0)} ms`, how],
    ];
  } finally {
    await sandbox.close();
    rmSync(top, { recursive: true, force: true });
  }
}
