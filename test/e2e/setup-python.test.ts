// `setup` on a Python project through the real bundle: a virtual environment in the checkout, the
// project installed into it (`pip install -e .`) with pytest from a local wheel folder, offline.
// Setup passes; reviewers read pytest failing on the planted bug; the fixer's call runs pytest in
// place; verify runs pytest in setup's environment; neither `.venv/` nor the egg-info is committed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Clone } from '../fakes/git-sandbox.js';
import { createWorld, type World } from './harness.js';
import { PRIVILEGE_PATHS } from './runner-user.js';
import { reviewerAnswer } from './scenarios.js';

/** A local wheel folder with setuptools, pytest and its dependencies (the machine's PyPI mirror). */
const WHEELS = '/opt/pypi/files';
const PYTHON = '/usr/bin/python3';
const ready = existsSync(PYTHON) && existsSync(WHEELS);

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const PROJECT = {
  'pyproject.toml':
    '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n' +
    '[project]\nname = "calc"\nversion = "1.0.0"\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n',
  'src/calc/__init__.py': 'def add(a, b):\n    return a + b\n',
  'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
  'README.md': '# calc\n',
};
const BUGGY = { 'src/calc/__init__.py': 'def add(a, b):\n    return a - b\n' };
const FIXED = 'def add(a, b):\n    return a + b\n';
const FINDING = {
  priority: 'P1',
  category: 'correctness',
  file: 'src/calc/__init__.py',
  line: 2,
  title: 'add() subtracts instead of adding',
  description: 'add(2, 3) returns -1.',
  suggestion: 'Return a + b.',
};
const SETUP = `${PYTHON} -m venv .venv\n.venv/bin/pip install -q --no-index --find-links ${WHEELS} -e . pytest`;
/** Without bytecode or a cache folder: what the fixer's own test run leaves it would commit. */
const PYTEST = 'PYTHONDONTWRITEBYTECODE=1 .venv/bin/python -m pytest -q -p no:cacheprovider';

it.skipIf(!ready).each(PRIVILEGE_PATHS)(
  'a venv in the checkout: reviewers read pytest, the fixer runs it, nothing of it is committed, $how',
  async ({ asRunnerUser }) => {
    world = await createWorld({ sandbox: { baseFiles: PROJECT, prChanges: BUGGY } });
    let checkout: Clone | undefined;
    const r = await world.run({
      asRunnerUser,
      prepare: async (c) => {
        checkout = c;
      },
      inputs: { setup: SETUP, verify: '.venv/bin/python -m pytest -q', 'max-rounds': '2' },
      rules: [
        { role: 'reviewer', round: 1, answer: reviewerAnswer([FINDING]) },
        { role: 'reviewer', answer: reviewerAnswer([]) },
        { role: 'fixer', fixAll: true, run: PYTEST, edits: { 'src/calc/__init__.py': FIXED } },
      ],
      killAfterMs: 600_000,
    });
    expect(r.outputs.status, r.stdout + r.stderr).toBe('converged');
    expect(r.stdout).toMatch(/setup created \d+ entries, never committed: .*\.venv/);
    const reviewer = world.agentCalls().find((c) => c.role === 'reviewer' && c.round === 1)!;
    const headTests = readFileSync(path.join(reviewer.contextDir, 'head-tests.md'), 'utf8');
    expect(headTests).toMatch(/```text\n[^]*assert -1 == 5/);
    const fixer = world.agentCalls().find((c) => c.role === 'fixer')!;
    expect(fixer.ran?.output).toContain('1 failed');
    const [fix] = await world.headLog();
    const changed = await world.sandbox.originGit(['diff-tree', '--no-commit-id', '--name-only', '-r', fix!.sha]);
    expect(changed.stdout.trim()).toBe('src/calc/__init__.py');
    // The checkout is handed back as it came: nothing of setup's, verify's or the calls' is left in it.
    expect((await checkout!.git(['status', '--porcelain', '--ignored'])).stdout).toBe('');
  },
  // pip builds the project and installs pytest: minutes on a loaded machine.
  600_000,
);
