// Lifecycle hooks as real shell processes in a checkout: the round's context reaches them, the
// findings they write come back parsed, and a failing hook or a bad findings file stops the run
// with an error that names the hook, the command and what was wrong.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createHookRunner, HookError, hooksForPr } from '../../src/commands/hooks.js';
import type { HookPoint } from '../../src/config/repo-config.js';

const SECRET = 'ghs_hooksecret456';
const CONTEXT = { round: 2, prNumber: 7, headSha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821', status: 'converged' };
let root: string;
let workDir: string;
let logs: string[];
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hooks-'));
  workDir = path.join(root, 'work');
  await mkdir(workDir);
  logs = [];
});
afterEach(() => rm(root, { recursive: true, force: true }));

function runner(hooks: Partial<Record<HookPoint, string[]>>) {
  return createHookRunner({
    hooks: { 'before-review': [], 'after-review': [], 'after-fix': [], 'after-finish': [], ...hooks },
    scratchDir: path.join(root, 'scratch'),
    cwd: workDir,
    // A value the redaction knows, reaching the hook the way a secret in its output would.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LEAKED: SECRET },
    timeoutMs: 20_000,
    redact: (t) => t.split(SECRET).join('***'),
    log: (l) => logs.push(l),
  });
}

const finding = {
  priority: 'P2',
  category: 'quality',
  file: 'src/math.js',
  line: 2,
  title: 'Lint: unused variable',
  description: 'x is never read.',
  suggestion: null,
};

it('runs the commands of its point in the checkout with the round in its environment and context file', async () => {
  const hook = runner({
    'after-review': [
      'echo "$REVIEW_LOOP_HOOK $REVIEW_LOOP_ROUND $REVIEW_LOOP_PR" > seen.txt',
      'echo "$REVIEW_LOOP_HEAD_SHA $REVIEW_LOOP_STATUS" >> seen.txt',
      'cat "$REVIEW_LOOP_CONTEXT_FILE" > context-copy.json',
    ],
  });
  expect(await hook.run('after-review', CONTEXT)).toEqual([]);
  const seen = await readFile(path.join(workDir, 'seen.txt'), 'utf8');
  expect(seen).toBe(`after-review 2 7\n${CONTEXT.headSha} converged\n`);
  expect(JSON.parse(await readFile(path.join(workDir, 'context-copy.json'), 'utf8'))).toEqual({
    hook: 'after-review',
    ...CONTEXT,
  });
  expect(logs).toHaveLength(3);
});

it('returns the findings a hook writes to its findings file', async () => {
  const json = JSON.stringify([finding]).replace(/'/g, "'\\''");
  const hook = runner({ 'before-review': [`printf '%s' '${json}' > "$REVIEW_LOOP_FINDINGS_FILE"`] });
  const found = await hook.run('before-review', CONTEXT);
  expect(found).toHaveLength(1);
  expect(found[0]).toMatchObject({ priority: 'P2', file: 'src/math.js', line: 2, title: 'Lint: unused variable' });
});

it('runs nothing at a point without commands', async () => {
  const hook = runner({ 'after-fix': ['touch ran.txt'] });
  expect(await hook.run('after-finish', CONTEXT)).toEqual([]);
  expect(existsSync(path.join(workDir, 'ran.txt'))).toBe(false);
  expect(logs).toEqual([]);
});

it('a failing hook stops the run, naming the hook, the command, the exit code and the redacted output', async () => {
  const failing = 'echo "lint failed with $LEAKED"; exit 4';
  const hook = runner({ 'after-fix': [failing, 'touch never.txt'] });
  const err = await hook.run('after-fix', CONTEXT).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(HookError);
  const message = (err as Error).message;
  expect(message).toContain(`The after-fix hook \`${failing}\` exited with 4; the run was stopped.`);
  expect(message).toContain('lint failed with ***');
  expect(message).not.toContain(SECRET);
  expect(existsSync(path.join(workDir, 'never.txt'))).toBe(false);
});

it('findings that are not findings stop the run, naming the bad field', async () => {
  const hook = runner({ 'after-review': [`echo '[{"priority":"P9","title":"x"}]' > "$REVIEW_LOOP_FINDINGS_FILE"`] });
  await expect(hook.run('after-review', CONTEXT)).rejects.toThrow(
    /The after-review hook wrote findings that are not a JSON array of findings \(0\.priority: /,
  );
  const garbage = runner({ 'after-review': [`echo 'not json' > "$REVIEW_LOOP_FINDINGS_FILE"`] });
  await expect(garbage.run('after-review', CONTEXT)).rejects.toThrow(/not a JSON array of findings/);
});

it('a findings file that is a link to another file is refused, not followed', async () => {
  const hook = runner({ 'after-review': ['ln -s /etc/passwd "$REVIEW_LOOP_FINDINGS_FILE"'] });
  await expect(hook.run('after-review', CONTEXT)).rejects.toThrow(/findings file must be a regular file/);
});

it('a PR from another repository runs no hooks, and says so once', () => {
  const hooks = { 'before-review': ['make lint'], 'after-review': [], 'after-fix': [], 'after-finish': [] };
  const said: string[] = [];
  const none = hooksForPr(hooks, true, (l) => said.push(l));
  expect(Object.values(none).flat()).toEqual([]);
  expect(said).toEqual([expect.stringContaining('allow-fork-fixes')]);
  expect(hooksForPr(hooks, false, (l) => said.push(l))).toBe(hooks);
  expect(said).toHaveLength(1);
});
