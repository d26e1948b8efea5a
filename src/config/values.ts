// Checks for single-string inputs and list items with a fixed shape.
import { isForbiddenEnvName } from '../agents/env.js';
import { example, fail } from './errors.js';
import { field, splitLines } from './fields.js';
import { LINES } from './file-forms.js';

/** A path inside the repository: relative, no `..`, read from the base branch via the API. */
export function configPath(name: string) {
  return field((value) => {
    const parts = value.split('/');
    if (!value.startsWith('/') && !value.includes('\\') && parts.every((p) => p !== '' && p !== '.' && p !== '..')) {
      return value;
    }
    return fail('must be a relative path inside the repository', value, example(name, '.github/pr-review-loop.yml'));
  });
}

export function presetName(name: string) {
  return field((value) => {
    if (/^[\w.-]+$/.test(value)) return value;
    return fail('must be a preset name (letters, digits, `.`, `_`, `-`)', value, example(name, 'strict'));
  });
}

/** A GitHub login; bots may be written with or without their `[bot]` suffix. */
export function botLogin(item: string): string {
  if (/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\[bot\])?$/.test(item)) return item;
  return fail(
    'must list GitHub logins, one per line or comma-separated',
    item,
    example('allowed-bots', 'renovate[bot]'),
  );
}

/**
 * A check the loop waits for (`wait-for-checks`): a workflow file (`ci.yml`,
 * `.github/workflows/ci.yml`: every job of it), a check name (a job's name, as GitHub shows it), or
 * `all`. One line each, as names may hold commas.
 */
export function checkName(item: string): string {
  const ok = item.length > 0 && item.length <= 200 && !/[\r\n]/.test(item);
  if (ok) return item.replace(/^\.?\/?\.github\/workflows\//, '');
  return fail('must list check names or workflow files, one per line', item, example('wait-for-checks', 'ci.yml'));
}

/** A label name GitHub takes: at most 50 characters (GitHub's limit for label names), one line. */
export function labelName(value: string): string {
  if (value.length <= 50 && !/[\r\n]/.test(value)) return value;
  const ex = example('converged-label', 'ready-for-human-review');
  return fail('must be one label name of at most 50 characters', value, ex);
}

/**
 * A workflow file name as `createWorkflowDispatch` takes it (`ci.yml`) or a numeric workflow id;
 * a path under `.github/workflows/` is shortened to the file name users mean.
 */
export function workflowFile(item: string): string {
  const file = item.replace(/^\.?\/?\.github\/workflows\//, '');
  if (/^[\w.-]+\.ya?ml$/.test(file) || /^\d+$/.test(file)) return file;
  return fail(
    'must list workflow files (e.g. ci.yml), one per line or comma-separated',
    item,
    example('dispatch-workflows', 'ci.yml'),
  );
}

/**
 * An entry of `home-folders`: a folder below the runner's HOME to show to calls (`.elan`), or,
 * after `!`, a name or path below HOME never to show (`!.config/acme/token.json`).
 */
export function homeFolder(item: string): string {
  const rel = item.startsWith('!') ? item.slice(1) : item;
  const parts = rel.split('/');
  if (!rel || rel.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..') || /[:\\]/.test(rel)) {
    return fail(
      "must list paths below the runner's HOME (no leading /, no ..), `!` before one never to show",
      item,
      example('home-folders', '.elan, !.config/acme/token.json'),
    );
  }
  return item;
}

/**
 * A variable name for `verify-env`/`agent-env`. Names the action keeps from every child (the
 * GitHub token, `INPUT_*`, the runner's command files) are refused here rather than dropped
 * silently later.
 */
export function envName(input: string) {
  return (item: string): string => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(item)) {
      return fail(
        'must list environment variable names, one per line or comma-separated',
        item,
        example(input, 'NPM_TOKEN'),
      );
    }
    if (isForbiddenEnvName(item)) {
      return fail(
        'names a GitHub or Actions credential, which no child process may get',
        item,
        example(input, 'NPM_TOKEN'),
      );
    }
    return item;
  };
}

/** The example of a `verify` a user can paste. */
export const VERIFY_EXAMPLE = example('verify', 'npm ci\nnpm test');

/** The example of a `setup` a user can paste. */
const SETUP_EXAMPLE = example('setup', 'npm ci');

/**
 * `setup`: the commands that install the project before the first agent, one a line. There is no
 * `none`: leaving it unset installs nothing.
 */
export function setupCommands() {
  return field((value): string[] => {
    const lines = splitLines(value);
    if (lines.some((l) => l.toLowerCase() === 'none'))
      return fail('lists commands; leave it unset to install nothing (`none` is for verify)', value, SETUP_EXAMPLE);
    return lines;
  }, LINES);
}

/**
 * `verify`: the commands a fix must pass before it is pushed, one a line, or `none` alone, the
 * explicit choice to push fixes without any check (the fix report says so).
 */
export function verifyCommands() {
  return field((value): string[] | 'none' => {
    const lines = splitLines(value);
    const none = lines.filter((l) => l.toLowerCase() === 'none');
    if (none.length === 0) return lines;
    if (lines.length === 1) return 'none';
    return fail('is either commands or `none` alone (push fixes without any check)', value, VERIFY_EXAMPLE);
  }, LINES);
}
