// Writes the Inputs and Outputs tables of README.md from action.yml, between the markers
// <!-- inputs:start -->/<!-- inputs:end --> and <!-- outputs:start -->/<!-- outputs:end -->,
// so the README never drifts from the contract. `--check` only reports a difference (exit 1).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));

const cell = (text) => String(text).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');

/** Splits "… Default: `3`." into the description and the default ("3" in backticks). */
export function splitDefault(description) {
  const match = /^(.*?)\s*Default: (.*?)\.?\s*$/s.exec(description ?? '');
  return match ? { text: match[1], default: match[2] } : { text: description ?? '', default: '' };
}

export function tables(actionYml) {
  const action = YAML.parse(actionYml);
  const inputs = Object.entries(action.inputs ?? {}).map(([name, spec]) => {
    const { text, default: documented } = splitDefault(spec.description);
    // A declared default (only github-token has one) is shown as written in action.yml.
    const shownDefault = spec.default === undefined ? documented : `\`${spec.default}\``;
    return `| \`${name}\` | ${cell(shownDefault)} | ${cell(text)} |`;
  });
  const outputs = Object.entries(action.outputs ?? {}).map(([name, spec]) => `| \`${name}\` | ${cell(spec.description)} |`);
  return {
    inputs: ['| Name | Default | Description |', '| --- | --- | --- |', ...inputs].join('\n'),
    outputs: ['| Name | Description |', '| --- | --- |', ...outputs].join('\n'),
  };
}

export function fill(readme, section, table) {
  const start = `<!-- ${section}:start -->`;
  const end = `<!-- ${section}:end -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md lacks the markers ${start} … ${end}`);
  return `${readme.slice(0, from + start.length)}\n${table}\n${readme.slice(to)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const readmePath = `${root}README.md`;
  const before = readFileSync(readmePath, 'utf8');
  const t = tables(readFileSync(`${root}action.yml`, 'utf8'));
  const after = fill(fill(before, 'inputs', t.inputs), 'outputs', t.outputs);
  if (process.argv.includes('--check')) {
    if (after !== before) {
      console.error('README.md tables differ from action.yml; run: node scripts/gen-readme-tables.mjs');
      process.exit(1);
    }
  } else if (after !== before) {
    writeFileSync(readmePath, after);
    console.log('README.md tables updated from action.yml');
  }
}
