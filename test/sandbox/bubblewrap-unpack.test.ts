// The script that fetches and unpacks bubblewrap where the system has none (sandbox/bubblewrap.ts),
// run for real with stand-ins for apt-get, dpkg-deb, mkdir and chown first on its PATH (so it touches
// no package and no folder of the machine), and TMPDIR an empty folder of the test's own: the folder
// it fetches into must be gone whether the fetch worked, failed, or was stopped by a signal.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runProcess } from '../../src/process/process.js';
import { UNPACK } from '../../src/sandbox/bubblewrap.js';

let top: string;
let bin: string;
let callTmp: string;
beforeEach(() => {
  top = mkdtempSync(path.join(tmpdir(), 'bwrap-unpack-'));
  bin = path.join(top, 'bin');
  callTmp = path.join(top, 'tmp');
  mkdirSync(bin);
  mkdirSync(callTmp);
});
afterEach(() => rmSync(top, { recursive: true, force: true }));

/** A stand-in program: logs its name and arguments, then runs `body`. */
function standIn(name: string, body: string): void {
  const file = path.join(bin, name);
  writeFileSync(file, `#!/bin/sh\necho "${name} $*" >> ${path.join(top, 'log')}\n${body}\n`);
  chmodSync(file, 0o755);
}

const unpack = (timeoutMs = 20_000) =>
  runProcess({
    command: '/bin/sh',
    args: ['-c', UNPACK],
    cwd: top,
    env: { PATH: `${bin}:/usr/bin:/bin`, TMPDIR: callTmp },
    timeoutMs,
  });

it('unpacks the package it fetched, and leaves nothing in TMPDIR', async () => {
  standIn('apt-get', 'touch bubblewrap_0.9_amd64.deb');
  for (const name of ['dpkg-deb', 'mkdir', 'chown']) standIn(name, 'true');
  const r = await unpack();
  expect(r.exitCode).toBe(0);
  expect(readFileSync(path.join(top, 'log'), 'utf8')).toContain('dpkg-deb -x bubblewrap_0.9_amd64.deb');
  expect(readdirSync(callTmp)).toEqual([]);
});

it('leaves nothing in TMPDIR when the package cannot be fetched', async () => {
  standIn('apt-get', 'exit 100');
  for (const name of ['dpkg-deb', 'mkdir', 'chown']) standIn(name, 'true');
  const r = await unpack();
  expect(r.exitCode).toBe(100);
  expect(readFileSync(path.join(top, 'log'), 'utf8')).not.toContain('dpkg-deb');
  expect(readdirSync(callTmp)).toEqual([]);
});

it('leaves nothing in TMPDIR when it is stopped while it fetches (SIGTERM to its process group)', async () => {
  const fetching = path.join(top, 'fetching');
  standIn('apt-get', `touch ${fetching}; exec sleep 30`);
  const script = spawn('/bin/sh', ['-c', UNPACK], {
    cwd: top,
    env: { PATH: `${bin}:/usr/bin:/bin`, TMPDIR: callTmp },
    detached: true,
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => script.on('exit', (code) => resolve(code)));
  try {
    for (const until = Date.now() + 30_000; Date.now() < until && !existsSync(fetching);) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(readdirSync(callTmp)).toHaveLength(1); // the folder it fetches into
    process.kill(-script.pid!, 'SIGTERM');
    expect(await exited).toBe(1);
    expect(readdirSync(callTmp)).toEqual([]);
  } finally {
    try {
      process.kill(-script.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }
});
