#!/usr/bin/env node
// A hostile process for the isolation tests: run as an agent, a verify command or a hook, it
// does what PR code could do to steal the token. It walks its ancestors and reads each one's
// /proc/<pid>/environ and /proc/<pid>/mem (every readable mapping), scans every other process's
// environ too, and leaves a process behind that escaped both its process group (setsid) and the
// marker variable (env -u). It appends one JSON line of what it found to $HUNTER_LOG (argv[2]
// names the role). It also reads every file it can reach in the checkout and the folders
// $HUNTER_LOOK_IN names, looking for the same secrets. It never fails, so the run goes on and
// the product can be seen doing its job.
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readFileSync, readSync, readdirSync } from 'node:fs';

const role = process.argv[2] ?? 'unknown';
// The secrets to look for come from a file: in a variable, they would be in every environ.
const needles = readFileSync(process.env.HUNTER_NEEDLES_FILE, 'utf8').split('\n').filter(Boolean);
const needleBytes = needles.map((n) => Buffer.from(n));

function tryRead(file) {
  try {
    return { ok: true, data: readFileSync(file) };
  } catch (e) {
    return { ok: false, code: e.code };
  }
}

const contains = (buf) => needleBytes.some((n) => buf.includes(n));

/** Reads every readable mapping of /proc/<pid>/mem (up to 64 MiB in all) looking for a needle. */
function scanMem(pid) {
  const maps = tryRead(`/proc/${pid}/maps`);
  if (!maps.ok) return { opened: false, code: maps.code, found: false };
  let fd;
  try {
    fd = openSync(`/proc/${pid}/mem`, 'r');
  } catch (e) {
    return { opened: false, code: e.code, found: false };
  }
  let budget = 64 * 1024 * 1024;
  let found = false;
  let bytesRead = 0;
  try {
    for (const line of maps.data.toString().split('\n')) {
      const m = /^([0-9a-f]+)-([0-9a-f]+) r/.exec(line);
      if (!m || budget <= 0) continue;
      const start = BigInt(`0x${m[1]}`);
      const len = Math.min(Number(BigInt(`0x${m[2]}`) - start), budget, 8 * 1024 * 1024);
      const buf = Buffer.alloc(len);
      try {
        const n = readSync(fd, buf, 0, len, start);
        bytesRead += n;
        budget -= n;
        if (contains(buf.subarray(0, n))) found = true;
      } catch {
        // an unreadable region ([vvar], guard pages)
      }
    }
  } finally {
    closeSync(fd);
  }
  return { opened: true, bytesRead, found };
}

function parentOf(pid) {
  const stat = tryRead(`/proc/${pid}/stat`);
  if (!stat.ok) return 0;
  const text = stat.data.toString();
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
}

const ancestors = [];
for (let pid = parentOf(process.pid); pid > 1; pid = parentOf(pid)) {
  const cmdline = tryRead(`/proc/${pid}/cmdline`);
  const environ = tryRead(`/proc/${pid}/environ`);
  ancestors.push({
    pid,
    cmdline: cmdline.ok ? cmdline.data.toString().split('\0').join(' ').trim() : '',
    environReadable: environ.ok,
    environHasToken: environ.ok && contains(environ.data),
    mem: scanMem(pid),
  });
}

const othersWithToken = [];
for (const entry of readdirSync('/proc')) {
  if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
  const environ = tryRead(`/proc/${entry}/environ`);
  if (environ.ok && contains(environ.data)) othersWithToken.push(Number(entry));
}

// Files: everything under the working directory (the checkout, its .git included) and under
// each folder $HUNTER_LOOK_IN lists, up to 8 levels and 1 MB a file.
const filesWithToken = [];
const filesSeen = { count: 0 };
function scanTree(dir, depth) {
  if (depth > 8) return;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) scanTree(p, depth + 1);
    else if (e.isFile()) {
      const data = tryRead(p);
      if (!data.ok || data.data.length > 1024 * 1024) continue;
      filesSeen.count++;
      if (contains(data.data)) filesWithToken.push(p);
    }
  }
}
scanTree(process.cwd(), 0);
for (const dir of (process.env.HUNTER_LOOK_IN ?? '').split(':').filter(Boolean)) scanTree(dir, 0);

// The escape: a new session and no marker variable, so neither the group kill nor the marker sweep finds it.
// Not detached: setsid(1) forks only when it already leads a process group, so here it keeps
// its pid through setsid(2) and the two execs, and escaped.pid is the sleeper's.
// Its duration is unique, so the test finds it by command line (inside a PID namespace its pid is not the host's).
const sleepFor = `600.${process.pid}${Date.now()}`;
const escaped = spawn('setsid', ['env', '-u', 'REVIEW_LOOP_INVOCATION_ID', 'sleep', sleepFor], { stdio: 'ignore' });
escaped.unref();
await new Promise((r) => setTimeout(r, 200));
const sleepers = [`sleep ${sleepFor}`];

appendFileSync(
  process.env.HUNTER_LOG,
  `${JSON.stringify({
    role,
    uid: process.getuid(),
    envNames: Object.keys(process.env).sort(),
    ancestors,
    othersWithToken,
    filesWithToken,
    filesSeen: filesSeen.count,
    sleepers,
  })}\n`,
);
