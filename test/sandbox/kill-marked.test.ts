// killMarked through sudo (src/sandbox/kill.ts), as on GitHub's hosted runners: a root shell
// started with `sudo -n` finds a call's processes by the marker entry in their environment and
// kills them, and no other process. Runs as root (then `sudo -n` needs no rule) where sudo is
// installed; the root path (killLeftovers) is agents-core's.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { killMarked } from '../../src/sandbox/kill.js';
import { sudoMissing } from './sudo-available.js';

const why = process.getuid?.() !== 0 ? 'needs root, to run sudo without a rule' : sudoMissing();
if (why) console.log(`kill-marked.test.ts: skipped (${why})`);

/** Running: neither gone nor a zombie (a killed child stays one until node reaps it). */
function running(c: ChildProcess): boolean {
  try {
    const stat = readFileSync(`/proc/${c.pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function sleeper(env: Record<string, string>): ChildProcess {
  return spawn('sleep', ['300'], { env: { PATH: process.env.PATH!, ...env }, stdio: 'ignore' });
}

it.runIf(why === null)('kills every process whose environment holds the marker, and no other', async () => {
  const value = `kill-marked-${process.pid}-${Date.now()}`;
  const marker = `REVIEW_LOOP_INVOCATION_ID=${value}`;
  const marked = [
    sleeper({ REVIEW_LOOP_INVOCATION_ID: value }),
    sleeper({ A: '1', REVIEW_LOOP_INVOCATION_ID: value, Z: '2' }),
  ];
  // Entries that hold the marker without being it: a longer id, another variable's value, a
  // value with a line break before it (environment entries end with a NUL, not a newline).
  const others = [
    sleeper({ REVIEW_LOOP_INVOCATION_ID: `${value}-other` }),
    sleeper({ OTHER: marker }),
    sleeper({ OTHER: `x\n${marker}` }),
  ];
  const ended = marked.map((c) => once(c, 'exit'));
  try {
    await killMarked('sudo', marker);
    for (const [code, signal] of await Promise.all(ended)) expect([code, signal]).toEqual([null, 'SIGKILL']);
    expect(others.map(running)).toEqual([true, true, true]);
  } finally {
    for (const c of [...marked, ...others]) c.kill('SIGKILL');
  }
});
