// The context folder an agent reads instead of a prompt stuffed with data (docs/agents.md,
// "The command agent", lists its files): one per round and role, created fresh, private (0700).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface ContextData {
  pr: object;
  files: object[];
  diff: string;
  /**
   * Review threads (threads.json). Only the reviewers and the analyzer get them: thread text is
   * written by anyone with a GitHub account, and never reaches the fixer, gate or confirmer.
   */
  threads?: object[];
  reviewState: object;
  /** The fixer's payload (Appendix A4 shape). */
  fixPayload?: object;
  /** More files by name: strings are written as they are, objects as JSON. */
  extra?: Record<string, string | object>;
}

const STANDARD_FILES = ['pr.json', 'files.json', 'diff.patch', 'threads.json', 'review-state.json', 'fix-payload.json'];

/** A single path segment: no separators, not `.`/`..`, no NUL. */
function assertPlainName(name: string, what: string): void {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) {
    throw new Error(`context folder: ${what} '${name}' must be a plain file name`);
  }
}

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;

/** Creates `<root>/<name>` fresh, writes the context files, returns the folder path. */
export async function writeContextDir(root: string, name: string, data: ContextData): Promise<string> {
  assertPlainName(name, 'folder name');
  const files = new Map<string, string>([
    ['pr.json', json(data.pr)],
    ['files.json', json(data.files)],
    ['diff.patch', data.diff],
    ['review-state.json', json(data.reviewState)],
  ]);
  if (data.threads !== undefined) files.set('threads.json', json(data.threads));
  if (data.fixPayload !== undefined) files.set('fix-payload.json', json(data.fixPayload));
  for (const [file, content] of Object.entries(data.extra ?? {})) {
    assertPlainName(file, 'extra file');
    if (STANDARD_FILES.includes(file))
      throw new Error(`context folder: extra file '${file}' would replace a standard file`);
    files.set(file, typeof content === 'string' ? content : json(content));
  }

  await mkdir(root, { recursive: true, mode: 0o700 });
  const dir = path.join(root, name);
  // Fresh: a previous round's files (e.g. an old fix-payload.json) must not linger.
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { mode: 0o700 });
  for (const [file, content] of files) {
    await writeFile(path.join(dir, file), content, { mode: 0o600 });
  }
  return dir;
}
