// Lifecycle hooks from the repo config: shell commands at before-review,
// after-review, after-fix and after-finish. They run in order, in the checkout, with the
// round's context in environment variables and a JSON file, and the same token-free
// environment as the agents. A hook adds findings by writing a JSON array of findings
// to $REVIEW_LOOP_FINDINGS_FILE. A failing hook aborts the run.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { findingSchema, type RawFinding } from '../agents/envelope.js';
import { readRegularFile } from '../files/untrusted-files.js';
import type { HookPoint } from '../config/repo-config.js';
import { runShell, succeeded, type ShellEnv } from './shell.js';
import { withheldBySandbox } from './withheld.js';

export class HookError extends Error {}

export interface HookRunner {
  run(point: HookPoint, context: Record<string, unknown>): Promise<RawFinding[]>;
}

/** Hooks run as the sandbox user, with write access to the checkout and their own folder. */
export interface HookOptions extends ShellEnv {
  hooks: Record<HookPoint, string[]>;
  scratchDir: string;
  redact: (text: string) => string;
  /** Told the findings a hook wrote before they are read: a secret one quotes is then redacted from all. */
  learnSecrets?: (data: unknown) => void;
  log: (line: string) => void;
}

const TAIL_CHARS = 2000;

const NO_HOOKS: Record<HookPoint, string[]> = {
  'before-review': [],
  'after-review': [],
  'after-fix': [],
  'after-finish': [],
};

/**
 * Hooks are trusted commands, but they run in a checkout of the PR's code: on a PR from another
 * repository that code is untrusted, so there hooks run only when fork fixes are allowed; and
 * without isolation under `isolation: auto` they do not run at all (`withheld` says why).
 */
export function hooksForPr(
  hooks: Record<HookPoint, string[]>,
  untrustedFork: boolean,
  log: (line: string) => void,
  withheld: string | null = null,
): Record<HookPoint, string[]> {
  if (!untrustedFork && !withheld) return hooks;
  if (Object.values(hooks).some((h) => h.length)) {
    log(
      withheld
        ? `hooks are not run: ${withheld}`
        : 'hooks are not run on a PR from another repository (set allow-fork-fixes to run them)',
    );
  }
  return NO_HOOKS;
}

export function createHookRunner(opts: HookOptions): HookRunner {
  let calls = 0;
  return {
    async run(point, context) {
      const commands = opts.hooks[point];
      if (commands.length === 0) return [];
      const n = ++calls;
      // A folder of the hook's own: it may write its findings there, and nothing else of ours.
      const dir = path.join(opts.scratchDir, `hook-${n}-${point}`);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const contextFile = path.join(dir, 'context.json');
      const findingsFile = path.join(dir, 'findings.json');
      await writeFile(contextFile, JSON.stringify({ hook: point, ...context }, null, 2));
      const env = {
        ...opts.env,
        REVIEW_LOOP_HOOK: point,
        REVIEW_LOOP_CONTEXT_FILE: contextFile,
        REVIEW_LOOP_FINDINGS_FILE: findingsFile,
        REVIEW_LOOP_ROUND: String(context.round ?? ''),
        REVIEW_LOOP_PR: String(context.prNumber ?? ''),
        REVIEW_LOOP_HEAD_SHA: String(context.headSha ?? ''),
        REVIEW_LOOP_STATUS: String(context.status ?? ''),
      };
      for (const command of commands) {
        opts.log(`hook ${point}: ${command}`);
        const r = await runShell(command, { ...opts, env, trustedCommand: true }, [dir]);
        if (!succeeded(r)) {
          const tail = opts.redact(r.stdout.slice(-TAIL_CHARS).trim());
          const why = r.timedOut ? 'timed out' : `exited with ${r.exitCode}`;
          const output = tail ? `\n\nOutput (tail):\n\n\`\`\`text\n${tail}\n\`\`\`` : '';
          const withheld = opts.sandbox?.user ? withheldBySandbox(r.stdout + r.stderr, env) : null;
          const because = withheld ? ` ${withheld}` : '';
          throw new HookError(`The ${point} hook \`${command}\` ${why}; the run was stopped.${because}${output}`);
        }
      }
      return readFindings(findingsFile, point, opts.learnSecrets);
    },
  };
}

// Hook output is PR-influenced: a link to another file or a FIFO must not be followed.
const MAX_FINDINGS_BYTES = 1024 * 1024;

async function readFindings(
  file: string,
  point: HookPoint,
  learnSecrets?: (data: unknown) => void,
): Promise<RawFinding[]> {
  const read = await readRegularFile(file, MAX_FINDINGS_BYTES);
  if (!read) return [];
  if ('refused' in read) {
    throw new HookError(
      `The ${point} hook's findings file must be a regular file of at most ${MAX_FINDINGS_BYTES} bytes ` +
        `(it is ${read.refused}).`,
    );
  }
  const text = read.bytes.toString('utf8');
  const json = safeJson(text);
  // The texts of the findings, JSON's escapes undone, before any of them is shown.
  learnSecrets?.(json ?? text);
  const parsed = z.array(findingSchema).safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const detail = first ? `${first.path.join('.')}: ${first.message}` : 'invalid JSON';
    throw new HookError(`The ${point} hook wrote findings that are not a JSON array of findings (${detail}).`);
  }
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
