// runProcess against real child processes: stdin, output cap, timeouts that kill
// the whole process group, spawn errors, grandchildren holding stdout open.
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../src/process/process.js';
import type { ProcessSpec } from '../../src/process/process.js';
import { NODE, fake, killQuietly, waitGone, withTempDir } from './helpers.js';

function spec(command: string, args: string[], more: Partial<ProcessSpec> = {}): ProcessSpec {
  return { command, args, cwd: process.cwd(), env: process.env, timeoutMs: 5_000, ...more };
}

function pidsOf(stdout: string): number[] {
  return stdout.trim().split(/\s+/).map(Number);
}

describe('runProcess: stdin', () => {
  it('writes stdin and closes it, so a child reading to EOF finishes', async () => {
    const res = await runProcess(spec(NODE, [fake('read-stdin.mjs')], { stdin: 'hello\nwörld' }));
    expect(res.exitCode).toBe(0);
    expect(res.timedOut).toBe(false);
    expect(JSON.parse(res.stdout)).toMatchObject({ text: 'hello\nwörld', bytes: 12 });
  });

  it('delivers a large prompt whole (back-pressure on the pipe)', async () => {
    const prompt = 'p'.repeat(3 * 1024 * 1024);
    const res = await runProcess(spec(NODE, [fake('read-stdin.mjs')], { stdin: prompt }));
    expect(JSON.parse(res.stdout).bytes).toBe(prompt.length);
  });

  it('gives /dev/null as stdin when none is given', async () => {
    const res = await runProcess(spec(NODE, [fake('read-stdin.mjs')]));
    expect(JSON.parse(res.stdout)).toMatchObject({ fd0: '/dev/null', bytes: 0 });
  });

  it('does not fail when the child exits without reading its stdin', async () => {
    const res = await runProcess(spec('sh', ['-c', 'exit 0'], { stdin: 'x'.repeat(1024 * 1024) }));
    expect(res.exitCode).toBe(0);
  });
});

describe('runProcess: output', () => {
  it('keeps the tail of each stream when the cap is exceeded', async () => {
    const res = await runProcess(spec(NODE, [fake('big-output.mjs'), '200000'], { maxOutputBytes: 1000 }));
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toHaveLength(1000);
    expect(res.stdout.endsWith('x<<STDOUT-END>>')).toBe(true);
    expect(res.stderr.endsWith('x<<STDERR-END>>')).toBe(true);
    expect(res.droppedBytes).toEqual({ stdout: 200014 - 1000, stderr: 200014 - 1000 });
  });

  it('starts the kept tail on a whole UTF-8 character', async () => {
    const res = await runProcess(spec(NODE, ['-e', "process.stdout.write('é'.repeat(1000))"], { maxOutputBytes: 101 }));
    expect(res.stdout).toBe('é'.repeat(50));
  });

  it('reports exit code and signal', async () => {
    const res = await runProcess(spec('sh', ['-c', 'echo out; echo err >&2; exit 7']));
    expect(res).toMatchObject({ exitCode: 7, signal: null, stdout: 'out\n', stderr: 'err\n', timedOut: false });
    expect(res.droppedBytes).toBeUndefined();
    const killed = await runProcess(spec('sh', ['-c', 'kill -KILL $$']));
    expect(killed).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: false });
  });
});

describe('runProcess: timeouts and process groups', () => {
  it('kills the child and its grandchild on timeout', async () => {
    const res = await runProcess(spec('sh', ['-c', 'sleep 100 & echo "$$ $!"; sleep 100'], { timeoutMs: 300 }));
    const pids = pidsOf(res.stdout);
    try {
      expect(pids).toHaveLength(2);
      expect(res.timedOut).toBe(true);
      expect(res.signal).toBe('SIGTERM');
      expect(res.durationMs).toBeLessThan(1500);
      for (const pid of pids) expect(await waitGone(pid)).toBe(true);
    } finally {
      killQuietly(pids);
    }
  });

  it('sends SIGKILL after the grace when SIGTERM is ignored', async () => {
    const script = "trap '' TERM; echo $$; while :; do sleep 0.05; done";
    const res = await runProcess(spec('sh', ['-c', script], { timeoutMs: 200, killGraceMs: 300 }));
    const pids = pidsOf(res.stdout);
    try {
      expect(res.timedOut).toBe(true);
      expect(res.signal).toBe('SIGKILL');
      expect(res.durationMs).toBeGreaterThanOrEqual(450);
      expect(res.durationMs).toBeLessThan(1500);
      expect(await waitGone(pids[0]!)).toBe(true);
    } finally {
      killQuietly(pids);
    }
  });

  it('does not wait for a grandchild that keeps stdout open, and kills it', async () => {
    const res = await runProcess(spec('sh', ['-c', 'sleep 100 & echo $!; echo done']));
    const [sleeper] = pidsOf(res.stdout.split('\n')[0]!);
    try {
      expect(res.exitCode).toBe(0);
      expect(res.timedOut).toBe(false);
      expect(res.stdout).toContain('done');
      expect(res.durationMs).toBeLessThan(1500);
      expect(await waitGone(sleeper!)).toBe(true);
    } finally {
      killQuietly([sleeper!]);
    }
  });

  it('kills a process that left the group for a session of its own (setsid)', async () => {
    const res = await runProcess(spec('sh', ['-c', 'setsid sleep 100 > /dev/null 2>&1 < /dev/null & echo $!']));
    const [escaped] = pidsOf(res.stdout.split('\n')[0]!);
    try {
      expect(res.exitCode).toBe(0);
      expect(await waitGone(escaped!)).toBe(true);
    } finally {
      killQuietly([escaped!]);
    }
  });

  it('kills the child group when the parent process gets SIGTERM', async () => {
    await withTempDir(async (dir) => {
      const { buildSync } = await import('esbuild');
      const bundle = `${dir}/process.mjs`;
      buildSync({
        entryPoints: [new URL('../../src/process/process.ts', import.meta.url).pathname],
        bundle: true,
        format: 'esm',
        platform: 'node',
        outfile: bundle,
        logLevel: 'silent',
      });
      const pidFile = `${dir}/pids`;
      const parent = runProcess(spec(NODE, [fake('parent-runner.mjs'), bundle, pidFile], { timeoutMs: 10_000 }));
      const { readFile } = await import('node:fs/promises');
      let text = '';
      for (const until = Date.now() + 30_000; Date.now() < until && text === '';) {
        text = await readFile(pidFile, 'utf8').catch(() => '');
        if (text === '') await new Promise((r) => setTimeout(r, 25));
      }
      const [parentPid, ...pids] = pidsOf(text);
      try {
        expect(pids).toHaveLength(2);
        process.kill(parentPid!, 'SIGTERM');
        const res = await parent;
        expect(res.signal).toBe('SIGTERM');
        expect(res.stdout).not.toContain('runProcess returned');
        for (const pid of pids) expect(await waitGone(pid)).toBe(true);
      } finally {
        killQuietly(pids);
      }
    });
  });
});

describe('runProcess: spawn errors', () => {
  it('resolves with exitCode null and names a missing command', async () => {
    const res = await runProcess(spec('definitely-not-a-command-4711', ['x']));
    expect(res.exitCode).toBeNull();
    expect(res.timedOut).toBe(false);
    expect(res.stderr).toContain("'definitely-not-a-command-4711'");
    expect(res.stderr).toContain('not found');
  });

  it('names a missing working directory instead of blaming the command', async () => {
    const res = await runProcess(spec('sh', ['-c', 'true'], { cwd: '/nonexistent/dir-4711' }));
    expect(res.exitCode).toBeNull();
    expect(res.stderr).toContain('/nonexistent/dir-4711 does not exist');
  });

  it('resolves on an argument that cannot be passed (NUL byte)', async () => {
    const res = await runProcess(spec('sh', ['-c', 'echo a\0b']));
    expect(res.exitCode).toBeNull();
    expect(res.stderr).toContain("cannot start 'sh'");
  });
});
