// What a `command` agent spent, as the command says: a JSON file at $REVIEW_LOOP_USAGE_FILE with
// `inputTokens`, `outputTokens` and `costUsd` (each optional). The command is the workflow
// author's, but it runs as the sandbox user next to an agent, so the file is read like
// untrusted input: a regular file (no link followed, no FIFO waited on), small, numbers only.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { readRegularFile } from '../files/untrusted-files.js';
import { NO_USAGE } from './types.js';
import type { Usage } from '../domain/agent-run.js';

const MAX_BYTES = 4096;

export const usageFile = (stateDir: string): string => path.join(stateDir, 'usage.json');

/** Removes a file a previous call left, so only this call's report counts. */
export async function clearUsage(stateDir: string): Promise<void> {
  await rm(usageFile(stateDir), { force: true });
}

export async function readUsage(stateDir: string, log: (line: string) => void = () => undefined): Promise<Usage> {
  const file = usageFile(stateDir);
  const read = await readRegularFile(file, MAX_BYTES);
  if (!read) return { ...NO_USAGE };
  if ('refused' in read) {
    log(`${file} not read (${read.refused}): the call's usage is unknown`);
    return { ...NO_USAGE };
  }
  let data: unknown;
  try {
    data = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    return { ...NO_USAGE };
  }
  const field = (key: string): number | null => {
    const v = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[key] : undefined;
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
  };
  return { inputTokens: field('inputTokens'), outputTokens: field('outputTokens'), costUsd: field('costUsd') };
}
