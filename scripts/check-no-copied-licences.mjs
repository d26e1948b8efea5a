// Fails when a committed file carries another project's licence text or copyright notice: the mark of
// a copy of someone else's code or data. This repository holds its own writing; a public project's
// files come from the npm registry (a devDependency pinned exactly, the lockfile holding its
// integrity) or are fetched at run time, so their licence and version travel with them.
//
//   node scripts/check-no-copied-licences.mjs   (run from the repository's root; part of `npm run lint`)
//
// What is read: every file `git ls-files` lists, but
// - node_modules/ anywhere: installed dependencies, which carry their licences as they should;
// - dist/: the bundle built from src/ and the locked dependencies (CI fails when it differs from a
//   fresh build), so whatever it holds is checked at its source.
// What passes although it matches:
// - this project's own licence: a licence file at the root that names this project (package.json's name);
// - CARRIED below: files that are not this project's writing, kept knowingly, each saying why.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The phrases that open or mark a licence or a copyright notice (regex sources never match themselves). */
const MARKS = [
  ['a copyright notice', /\bcopyright\s*(?:\(c\)|©|&copy;|\d{4})/i],
  ['a copyright notice', /©\s*\d{4}/],
  ['the MIT licence', /permission\s+is\s+hereby\s+granted/i],
  ['the ISC licence', /permission\s+to\s+use,\s+copy,\s+modify/i],
  ['a licence disclaimer', /the\s+software\s+is\s+provided\s+"?as\s+is"?/i],
  ['the Apache licence', /licensed\s+under\s+the\s+apache\s+license/i],
  ['a BSD licence', /redistribution\s+and\s+use\s+in\s+source\s+and\s+binary\s+forms/i],
  ['a GNU licence', /\bGNU\s+(?:affero\s+|lesser\s+|library\s+)?general\s+public\s+license\b/i],
  ['the Mozilla licence', /mozilla\s+public\s+license/i],
  // This project writes no SPDX headers and no licence banners in comments (the JSDoc tag that
  // minifiers keep): one in a file came from elsewhere. The [l] keeps this line from matching itself.
  ['an SPDX licence header', /SPDX-(?:License-Identifier|FileCopyrightText)\s*:/],
  ['a licence banner', /@[l]icense\b/],
];

/** Not this project's writing, kept knowingly: path -> why it stays and where it comes from. */
const CARRIED = new Map([
  [
    'src/security/secret-rules.json',
    "the token formats of gitleaks' default rules, which the redactor runs inside the bundle; the file " +
      'records their project, version and commit, and keeps the MIT notice a copy must carry',
  ],
]);

const LICENCE_FILE = /^(?:LICEN[CS]E|COPYING)(?:\.md|\.txt)?$/i;

function skipped(file) {
  return file.split('/').includes('node_modules') || file.startsWith('dist/');
}

function lineOf(text, index) {
  return text.slice(0, index).split('\n').length;
}

const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8', maxBuffer: 64 << 20 })
  .split('\0')
  .filter((f) => f !== '');
const project = JSON.parse(readFileSync('package.json', 'utf8')).name;

const found = [];
let read = 0;
for (const file of files) {
  if (skipped(file) || CARRIED.has(file)) continue;
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    // Deleted in the working tree but not yet from the index: nothing there to carry anything.
    if (err.code === 'ENOENT') continue;
    throw err;
  }
  if (bytes.includes(0)) continue; // binary
  read++;
  const text = bytes.toString('utf8');
  if (LICENCE_FILE.test(file) && text.includes(project)) continue;
  for (const [what, mark] of MARKS) {
    const m = mark.exec(text);
    if (m) {
      found.push(`${file}:${lineOf(text, m.index)}: ${what} ("${m[0].replace(/\s+/g, ' ')}")`);
      break;
    }
  }
}

if (found.length > 0) {
  console.error(
    `${found.length} committed file(s) carry another project's licence text or copyright notice:\n` +
      found.map((f) => `  ${f}`).join('\n') +
      "\nThis repository holds its own writing only. Take a public project's files from the npm registry " +
      '(e.g. `npm install --save-exact --save-dev negotiator@0.6.2`, then read them from node_modules) or ' +
      'fetch them at run time: see docs/development.md, "Code from other projects". A licence file at the ' +
      `root must name this project (${project}).`,
  );
  process.exit(1);
}
console.log(`No copied licence text or copyright notice in ${read} committed file(s).`);
