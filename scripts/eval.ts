// npm run eval -- --config <file> [--cases <folder>] [--case <name>]… [--out <folder>]
// npm run eval -- --check [--cases <folder>] [--case <name>]…   (each case's code and tests only)
// Runs the bundled action (dist/index.js), as GitHub would, on each evaluation case under each
// configuration of the file, against the local stand-in of GitHub, and judges each run by a test the
// loop never saw. Prints a line per case, then per configuration a table; writes a markdown table and
// JSON results to the out folder (default .cache/eval). docs/evaluation.md says how to read it.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readCase } from './eval/case.js';
import { readConfigurations } from './eval/config.js';
import { prepareCase, runCase, type CaseResult } from './eval/run-case.js';
import { caseLine, markdownTables, summarise } from './eval/table.js';

const USAGE =
  'usage: npm run eval -- --config eval/configs/example.yml [--cases eval/cases] [--case <name>] [--out .cache/eval]';

const { values } = parseArgs({
  options: {
    config: { type: 'string' },
    check: { type: 'boolean', default: false },
    cases: { type: 'string', default: 'eval/cases' },
    case: { type: 'string', multiple: true },
    out: { type: 'string', default: path.join('.cache', 'eval') },
  },
});
if (values.check) {
  // Fetches each case's code, checks its hash, applies its patch and runs its held-out test before
  // and after the PR: what a new case must pass before it is worth a model's time.
  let bad = 0;
  for (const folder of caseFolders(values.case)) {
    try {
      // A case.json that does not read is one broken case among the others, not the end of the check.
      const c = readCase(folder);
      (await prepareCase(c)).cleanup();
      console.log(`${c.name}: ok (held-out test passes before the PR, fails on it)`);
    } catch (e) {
      bad++;
      console.log(`${path.basename(folder)}: BROKEN: ${(e as Error).message}`);
    }
  }
  process.exit(bad ? 1 : 0);
}
if (!values.config) {
  console.error(`--config is required: the file naming the configurations to run.\n${USAGE}`);
  process.exit(2);
}
const { configurations, cases: listed } = readConfigurations(values.config, process.env);
const cases = caseFolders(values.case ?? listed).map(readCase);

const results: CaseResult[] = [];
for (const config of configurations) {
  for (const c of cases) {
    console.log(`[${config.name}] ${c.name}: running`);
    const r = await runCase(c, config, (l) => console.log(`[${config.name}] ${l}`));
    results.push(r);
    console.log(caseLine(r));
  }
}
const summaries = configurations.map((c) =>
  summarise(
    c.name,
    results.filter((r) => r.configuration === c.name),
  ),
);
const markdown = markdownTables(results, summaries);
mkdirSync(values.out, { recursive: true });
writeFileSync(path.join(values.out, 'results.md'), `${markdown}\n`);
writeFileSync(path.join(values.out, 'results.json'), `${JSON.stringify({ summaries, results }, null, 2)}\n`);
console.log(`\n${markdown}`);
console.log(`written: ${path.join(values.out, 'results.md')}, ${path.join(values.out, 'results.json')}`);
process.exitCode = results.some((r) => r.error) ? 1 : 0;

/** The case folders to run: all under --cases, or those named. */
function caseFolders(wanted: string[] | undefined): string[] {
  const all = readdirSync(values.cases)
    .filter((n) => statSync(path.join(values.cases, n)).isDirectory())
    .sort();
  for (const n of wanted ?? []) {
    if (!all.includes(n)) throw new Error(`case ${n} is not in ${values.cases} (there: ${all.join(', ') || 'none'})`);
  }
  return all.filter((n) => !wanted || wanted.includes(n)).map((n) => path.join(values.cases, n));
}
