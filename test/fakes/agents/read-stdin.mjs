// Reads stdin to EOF, then reports what it got and where fd 0 pointed.
import { readlinkSync } from 'node:fs';

let fd0 = '';
try {
  fd0 = readlinkSync('/proc/self/fd/0');
} catch {
  fd0 = 'unknown';
}
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const text = Buffer.concat(chunks).toString('utf8');
process.stdout.write(JSON.stringify({ fd0, bytes: Buffer.byteLength(text), text }));
