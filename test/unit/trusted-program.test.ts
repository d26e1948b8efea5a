// The action's own programs come from folders no call can write (src/process/programs.ts).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openOnTheWay, searchPath, trustedProgram } from '../../src/process/programs.js';

let top: string;
let open: string;
let closed: string;
let linked: string;

beforeAll(() => {
  // Below a folder of our own with 0755 all the way down from it; /tmp itself is 1777, so the
  // folders made here stand on a folder everyone may write, like any program below /tmp.
  top = mkdtempSync(path.join(tmpdir(), 'trusted-program-'));
  open = path.join(top, 'open');
  closed = path.join(top, 'closed');
  linked = path.join(top, 'linked');
  for (const d of [open, closed, linked]) mkdirSync(d);
  chmodSync(open, 0o777);
  chmodSync(closed, 0o755);
  for (const d of [open, closed]) writeFileSync(path.join(d, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
  symlinkSync(path.join(open, 'tool'), path.join(linked, 'tool'));
});
afterAll(() => rmSync(top, { recursive: true, force: true }));

it('takes a system program from a folder only root can write', () => {
  expect(trustedProgram('sh', ['/usr/bin', '/bin'])).toMatch(/^\/(usr\/)?bin\/(da|ba)?sh$/);
});

it('refuses a candidate in a folder others can write, and says so when none is left', () => {
  expect(() => trustedProgram('tool', [open])).toThrow(
    /tool was not found .*refused: .*open\/tool \(.*open can be written/,
  );
});

it('refuses a link that leads into such a folder', () => {
  expect(() => trustedProgram('tool', [linked])).toThrow(/refused: .*linked\/tool/);
});

it('refuses everything below /tmp, which everyone may write', () => {
  // closed is 0755, but /tmp above it is 1777: a call could have replaced closed itself.
  expect(() => trustedProgram('tool', [closed])).toThrow(/can be written by others/);
});

it('passes over a refused candidate to the next folder', () => {
  expect(trustedProgram('sh', [open, '/bin', '/usr/bin'])).toMatch(/^\/(usr\/)?bin\/(da|ba)?sh$/);
});

it('leaves an absolute path as it is', () => {
  expect(trustedProgram('/usr/bin/env')).toBe('/usr/bin/env');
});

it('runs the name as found, not where its link leads (pkill is a link to pgrep, and acts by its name)', () => {
  expect(trustedProgram('pkill', ['/usr/bin'])).toBe('/usr/bin/pkill');
});

it('refuses a safe folder reached through a link in an open one (the link can be swapped)', () => {
  symlinkSync('/usr/bin', path.join(open, 'system'));
  expect(() => trustedProgram('sh', [path.join(open, 'system')])).toThrow(/can be written by others/);
});

it("never takes the action's git from a folder of the checkout on PATH (the PR's files are the action user's)", ({
  skip,
}) => {
  // Outside /tmp, so that only the checkout rule can refuse it: below /opt, which only root may write.
  if (process.getuid?.() !== 0) return skip('needs root to make a folder below /opt');
  const ws = mkdtempSync('/opt/prl-workspace-');
  try {
    chmodSync(ws, 0o755);
    mkdirSync(path.join(ws, 'bin'), { mode: 0o755 });
    writeFileSync(path.join(ws, 'bin', 'git'), '#!/bin/sh\n', { mode: 0o755 });
    const folders = searchPath({ PATH: `${ws}/bin:/usr/bin`, GITHUB_WORKSPACE: ws }, '/');
    expect(trustedProgram('git', folders)).toBe('/usr/bin/git');
    // The action's working directory is a checkout too.
    expect(trustedProgram('git', searchPath({ PATH: `${ws}/bin:/usr/bin` }, ws))).toBe('/usr/bin/git');
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

it('finds what on the way to a program others may write (bubblewrap is run as root by its path)', () => {
  expect(openOnTheWay('/usr/bin/env')).toBeNull();
  expect(openOnTheWay(path.join(open, 'tool'))).toBe(open);
  // A link in a folder of its own: the folders above it (/tmp, 1777) are open already.
  expect(openOnTheWay(path.join(linked, 'tool'))).toBe('/tmp');
});
