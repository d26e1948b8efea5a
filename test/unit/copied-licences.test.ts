// scripts/check-no-copied-licences.mjs (part of `npm run lint`) run on small git repositories made
// here: it must find a copied licence or copyright notice wherever a copy would bring one, and let
// this project's own licence file, installed dependencies and the built bundle pass.
// Each test makes its repository under the system's temp folder and removes it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-no-copied-licences.mjs', import.meta.url));

/**
 * Words joined by spaces. The marks the check looks for are built from pieces in this file, so that
 * this file, committed like any other, carries none of them itself.
 */
const words = (...w: string[]): string => w.join(' ');
const COPYRIGHT = words('Copy' + 'right', '(c)', '2014 Jane Doe');
/** Texts a copy brings, each with the kind the check must name. */
const MARKS: { kind: string; sample: string; text: string }[] = [
  {
    kind: 'a copyright notice',
    sample: 'in a header',
    text: `/*!\n * left-pad\n * ${COPYRIGHT}\n * MIT Licensed\n */\n`,
  },
  { kind: 'a copyright notice', sample: 'with a year only', text: words('#', 'Copy' + 'right', '2019 Example Corp') },
  {
    kind: 'the MIT licence',
    sample: 'its grant',
    text: words('Permission', 'is', 'hereby', 'granted, free of charge'),
  },
  {
    kind: 'the Apache licence',
    sample: 'its header',
    text: words('//', 'Licensed', 'under', 'the', 'Apache', 'License'),
  },
  {
    kind: 'a BSD licence',
    sample: 'its first clause',
    text: words('Redistribution', 'and', 'use', 'in', 'source') + ' and binary forms',
  },
  {
    kind: 'a GNU licence',
    sample: 'its header',
    text: words('under the terms of the', 'GNU', 'General', 'Public', 'License'),
  },
  { kind: 'an SPDX licence header', sample: 'naming a licence', text: `// SPDX-${'License-Identifier'}: Apache-2.0\n` },
  { kind: 'a licence banner', sample: 'kept by a minifier', text: `/** @${'license'} MIT */\n` },
];
const mark = (kind: string): string => MARKS.find((m) => m.kind === kind)!.text;

let repo: string;
afterEach(() => rmSync(repo, { recursive: true, force: true }));

/** A repository whose index holds `files` (the check reads what git lists), with this project's package.json. */
function repoWith(files: Record<string, string>): string {
  repo = mkdtempSync(path.join(tmpdir(), 'copied-licences-'));
  const all = { 'package.json': '{ "name": "pr-review-loop" }\n', 'src/own.ts': 'export const own = 1;\n', ...files };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
    writeFileSync(path.join(repo, name), text);
  }
  git(['init', '--quiet']);
  git(['add', '--force', '.']);
  return repo;
}

function git(args: string[]): void {
  const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function check(): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [SCRIPT], { cwd: repo, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

it.each(MARKS)('finds $kind ($sample) and names the file and line', ({ kind, text }) => {
  repoWith({ 'test/fixtures/copied/lib/index.js': `'use strict';\n\n${text}\nmodule.exports = 1;\n` });
  const r = check();
  expect(r.code, r.out).toBe(1);
  expect(r.out).toContain('1 committed file(s)');
  expect(r.out).toContain(`  test/fixtures/copied/lib/index.js:${text.startsWith('/*!') ? 5 : 3}: ${kind} (`);
  expect(r.out).toContain('docs/development.md');
});

it('finds a licence file that names someone else, at the root or in a copied folder', () => {
  const mit = `MIT License\n\n${COPYRIGHT}\n\n${mark('the MIT licence')}\n`;
  repoWith({ LICENSE: mit, 'vendor/negotiator/LICENSE': mit.replace('Jane Doe', 'pr-review-loop fans') });
  const r = check();
  expect(r.code, r.out).toBe(1);
  expect(r.out).toContain('2 committed file(s)');
  expect(r.out).toContain('  LICENSE:3: a copyright notice');
  // Naming this project helps only the root licence file: a copy elsewhere is still a copy.
  expect(r.out).toContain('  vendor/negotiator/LICENSE:3: a copyright notice');
});

it("lets this project's own licence file, node_modules and dist/ pass", () => {
  repoWith({
    LICENSE: `MIT License\n\n${COPYRIGHT.replace('Jane Doe', 'the pr-review-loop authors')}\n`,
    'node_modules/left-pad/index.js': mark('a copyright notice'),
    'test/fixtures/app/node_modules/x/LICENSE': mark('the MIT licence'),
    'dist/main.js': mark('a licence banner'),
    'docs/notes.md': 'We credit every copyright holder; the licence of a dependency travels with it.\n',
  });
  const r = check();
  expect(r.out).toMatch(/No copied licence text or copyright notice in 4 committed file\(s\)/);
  expect(r.code).toBe(0);
});

it('skips a file deleted from the working tree but still in the index', () => {
  repoWith({ 'old/copy.js': mark('the MIT licence') });
  rmSync(path.join(repo, 'old'), { recursive: true });
  const r = check();
  expect(r.code, r.out).toBe(0);
});
