// What a trusted command line names and its call is shown: real files on this machine, the
// devices and kernel views never (the call has its own: src/sandbox/named-paths.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { namedPaths } from '../../src/sandbox/named-paths.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'named-paths-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('shows a named file, and the folder of a file that does not exist yet', () => {
  writeFileSync(path.join(dir, 'run.sh'), 'true\n');
  const shown = namedPaths(`sh ${dir}/run.sh > ${dir}/out.log`);
  expect(shown).toEqual([path.join(dir, 'run.sh'), dir]);
});

it('never shows a path under /dev, /proc or /sys, nor a folder above one', () => {
  const line =
    'node test.js 2>/dev/null >/dev/null </dev/null; echo x >/dev/stderr; head -c 16 /dev/urandom; ' +
    'cat /proc/self/status /proc/cpuinfo /sys/kernel/mm; ls /dev /proc /sys /dev/shm/nothing-here';
  expect(namedPaths(line)).toEqual([]);
});

it('never shows a link that leads into them', () => {
  symlinkSync('/proc/self', path.join(dir, 'me'));
  symlinkSync('/dev/null', path.join(dir, 'sink'));
  expect(namedPaths(`cat ${dir}/me/status > ${dir}/sink`)).toEqual([]);
});

it.runIf(process.getuid?.() === 0)('never shows a device node, wherever it lies', () => {
  const node = path.join(dir, 'null');
  execFileSync('mknod', ['-m', '666', node, 'c', '1', '3']);
  expect(namedPaths(`echo x > ${node}`)).toEqual([]);
});

it('shows a FIFO the command names (a database socket or a FIFO works the same way)', () => {
  const fifo = path.join(dir, 'events');
  execFileSync('mkfifo', [fifo]);
  expect(namedPaths(`cat ${fifo}`)).toEqual([fifo]);
});
