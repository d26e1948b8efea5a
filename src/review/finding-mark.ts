// The hidden mark at the start of each of the action's inline comments: which finding the thread
// is about, so a later round or run finds its thread again (own-threads.ts). Only a mark at the
// very start of a comment by the action itself counts.
import type { Finding, FixedFingerprint } from '../domain/findings.js';
import { MARKER } from '../domain/marker.js';

const FINDING_OPEN = '<!-- pr-review-loop-finding: ';
const FINDING_CLOSE = ' -->';

/** The id and what the finding is about, base64url so that no agent text can close the comment. */
export function findingMark(f: Finding): string {
  const about: FixedFingerprint = { id: f.id, category: f.category, file: f.file, title: f.title.slice(0, 200) };
  return `${FINDING_OPEN}${Buffer.from(JSON.stringify(about)).toString('base64url')}${FINDING_CLOSE}`;
}

/**
 * An inline comment of ours as its leading marks and the rest: redaction (which learns values
 * from text anyone may write, run-secrets.ts) must never reach into the marks, or a later round
 * would no longer find its thread.
 */
export function splitFindingMark(body: string): [marks: string, rest: string] {
  const open = `${MARKER}\n${FINDING_OPEN}`;
  if (!body.startsWith(open)) return ['', body];
  const end = body.indexOf(FINDING_CLOSE, open.length);
  if (end < 0) return ['', body];
  const cut = end + FINDING_CLOSE.length;
  return [body.slice(0, cut), body.slice(cut)];
}

/** The finding an inline comment of ours is about: the mark at its start, or null. */
export function readFindingMark(body: string): FixedFingerprint | null {
  const start = `${MARKER}\n`.length;
  if (!body.startsWith(`${MARKER}\n${FINDING_OPEN}`)) return null;
  const end = body.indexOf(FINDING_CLOSE, start + FINDING_OPEN.length);
  if (end < 0) return null;
  try {
    const encoded = body.slice(start + FINDING_OPEN.length, end);
    const o = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Record<string, unknown>;
    const str = (x: unknown) => typeof x === 'string';
    if (!o || !str(o.id) || !str(o.category) || !str(o.title) || !(o.file === null || str(o.file))) return null;
    const [id, category, title] = [o.id, o.category, o.title] as string[];
    return { id: id!, category: category!, file: o.file as string | null, title: title! };
  } catch {
    return null;
  }
}
