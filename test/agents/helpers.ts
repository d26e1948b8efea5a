// Shared setup for the real-CLI adapter tests: a temp checkout (a real git repo),
// a context folder, a state home, an Invocation, and a probe for leftover processes.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Invocation } from '../../src/agents/types.js';

/** A value that must never reach a CLI: the parent env carries it as GITHUB_TOKEN. */
export const FAKE_GITHUB_TOKEN = `ghs_${randomUUID().replace(/-/g, '')}`;

/** The API key the fake model server demands; a CLI without it is "not authenticated". */
export const FAKE_MODEL_KEY = 'sk-fake-model-key';

/** The content of the context folder's pr.json: plain text, so no CLI's JSON escaping hides it. */
export const CONTEXT_MARKER = 'PR-CONTEXT-MARKER-7';

export interface Workspace {
  root: string;
  /** The checkout (cwd of the agent), a git repo with one commit. */
  cwd: string;
  contextDir: string;
  /** Unique per workspace; every process the CLI starts inherits it (see liveProcesses). */
  marker: string;
  stateDir(name: string): string;
  cleanup(): void;
}

export function makeWorkspace(prefix: string): Workspace {
  const root = mkdtempSync(path.join(tmpdir(), `prl-${prefix}-`));
  const cwd = path.join(root, 'repo');
  const contextDir = path.join(root, 'context');
  const home = path.join(root, 'home');
  for (const d of [cwd, contextDir, home]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(cwd, 'app.txt'), 'let x = 1 // BUG\n');
  writeFileSync(path.join(contextDir, 'pr.json'), `${CONTEXT_MARKER}\n`);
  const gitEnv = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd, env: gitEnv, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'add', '.');
  git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', 'init');
  return {
    root,
    cwd,
    contextDir,
    marker: `PRL_TEST_MARKER=${randomUUID()}`,
    stateDir: (name) => path.join(root, 'state', name),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * The parent environment a test hands the adapter: PATH, a HOME of the
 * workspace, the marker, the token that must be scrubbed, and `extra`.
 */
export function parentEnv(ws: Workspace, extra: Record<string, string>): NodeJS.ProcessEnv {
  const [mk, mv] = ws.marker.split('=') as [string, string];
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: path.join(ws.root, 'home'),
    LANG: 'C.UTF-8',
    GITHUB_TOKEN: FAKE_GITHUB_TOKEN,
    INPUT_GITHUB_TOKEN: FAKE_GITHUB_TOKEN,
    [mk]: mv,
    ...extra,
  };
}

export function invocation(ws: Workspace, over: Partial<Invocation> & Pick<Invocation, 'role' | 'model'>): Invocation {
  return {
    name: over.role === 'reviewer' ? 'reviewer-1' : over.role,
    prompt: 'Review the change in app.txt. Context files are in the context folder.',
    cwd: ws.cwd,
    contextDir: ws.contextDir,
    stateDir: ws.stateDir(over.name ?? over.role),
    round: 1,
    timeoutMs: 90_000,
    ...over,
  };
}

/** Pids of live processes whose environment holds `marker` (NAME=value). */
export function liveProcesses(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      if (env.includes(marker)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked, or is not ours.
    }
  }
  return pids;
}

export const reviewerPayload = {
  conclusion: 'request_changes',
  findings: [
    { priority: 'P1', category: 'bug', file: 'app.txt', line: 1, title: 'x is wrong', description: 'BUG marker' },
  ],
  fullReport: 'One issue.',
};

/**
 * Codex's agent-config for the fake model server, as a user would put it under `codex:` to reach
 * a gateway (the Responses API, no retries); `extra` adds fields to the provider.
 */
export function codexFakeProvider(url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model_provider: 'fake',
    model_providers: {
      fake: {
        name: 'Fake',
        base_url: `${url}/v1`,
        env_key: 'FAKE_API_KEY',
        wire_api: 'responses',
        request_max_retries: 0,
        stream_max_retries: 0,
        ...extra,
      },
    },
  };
}
