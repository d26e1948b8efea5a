// Lifecycle hooks from the repo config (SPEC §9): shell commands at before-review,
// after-review, after-fix and after-finish. They run in order, in the checkout, with the
// round's context in environment variables and a JSON file, and the same token-free
// environment as the agents. A hook adds findings by writing a JSON array of findings
// (Appendix A1 shape) to $REVIEW_LOOP_FINDINGS_FILE. A failing hook aborts the run.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { findingSchema, type RawFinding } from './agents/envelope.js';
import { runProcess } from './agents/process.js';
import type { HookPoint } from './config/repo-config.js';

export class HookError extends Error {}

export interface HookRunner {
  run(point: HookPoint, context: Record<string, unknown>): Promise<RawFinding[]>;
}

export interface HookOptions {
  hooks: Record<HookPoint, string[]>;
  cwd: string;
  scratchDir: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  redact: (text: string) => string;
  log: (line: string) => void;
}

const TAIL_CHARS = 2000;

export function createHookRunner(opts: HookOptions): HookRunner {
  let calls = 0;
  return {
    async run(point, context) {
      const commands = opts.hooks[point];
      if (commands.length === 0) return [];
      const n = ++calls;
      const contextFile = path.join(opts.scratchDir, `hook-${n}-${point}.json`);
      const findingsFile = path.join(opts.scratchDir, `hook-${n}-${point}-findings.json`);
      await writeFile(contextFile, JSON.stringify({ hook: point, ...context }, null, 2));
      await rm(findingsFile, { force: true });
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
        const r = await runProcess({ command: '/bin/sh', args: ['-c', `exec 2>&1; ${command}`], cwd: opts.cwd, env, timeoutMs: opts.timeoutMs });
        if (r.exitCode !== 0 || r.timedOut) {
          const tail = opts.redact(r.stdout.slice(-TAIL_CHARS).trim());
          const why = r.timedOut ? 'timed out' : `exited with ${r.exitCode}`;
          throw new HookError(`The ${point} hook \`${command}\` ${why}; the run was stopped.${tail ? `\n\nOutput (tail):\n\n\`\`\`text\n${tail}\n\`\`\`` : ''}`);
        }
      }
      return readFindings(findingsFile, point);
    },
  };
}

async function readFindings(file: string, point: HookPoint): Promise<RawFinding[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  const parsed = z.array(findingSchema).safeParse(safeJson(text));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new HookError(`The ${point} hook wrote findings that are not a JSON array of findings (${first ? `${first.path.join('.')}: ${first.message}` : 'invalid JSON'}).`);
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
