// Identifiers and timestamps in GitHub's formats, deterministic where tests compare them.
import { createHash } from 'node:crypto';

export const ACTIONS_BOT = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' as const };

let counter = 1000;
/** Database ids for comments, reviews and threads: unique across one process. */
export function nextId(): number {
  counter += 1;
  return counter;
}

/** A stable numeric id per login, so the same user has the same id in every response. */
export function userId(login: string): number {
  if (login === ACTIONS_BOT.login) return ACTIONS_BOT.id;
  const h = createHash('sha1').update(login).digest();
  return 1_000_000 + (h.readUInt32BE(0) % 90_000_000);
}

/** GitHub's newer global node ids look like `PRRT_kwDO…`: a type prefix and an opaque tail. */
export function nodeId(prefix: string, id: number): string {
  return `${prefix}_kwDO${Buffer.from(`fake:${id}`).toString('base64url')}`;
}

/** ISO 8601 without milliseconds, as GitHub writes timestamps. */
export function isoNow(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A made-up commit sha for PRs described without a git repository. */
export function fakeSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}
