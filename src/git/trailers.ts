// Trailer parsing is git's own (`interpret-trailers --parse`), so what counts as a
// trailer here is exactly what git and GitHub treat as one.
import type { Git } from './runner.js';

export interface Trailer {
  key: string;
  value: string;
}

export async function parseTrailers(git: Git, message: string): Promise<Trailer[]> {
  const r = await git(['interpret-trailers', '--parse'], { input: message.endsWith('\n') ? message : `${message}\n` });
  const out: Trailer[] = [];
  for (const line of r.stdout.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    out.push({ key: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
  }
  return out;
}

/** Trailer keys compare case-insensitively, as in git. */
export async function hasTrailer(git: Git, message: string, key: string): Promise<boolean> {
  const want = key.toLowerCase();
  return (await parseTrailers(git, message)).some((t) => t.key.toLowerCase() === want);
}
