// Writes the input and output tables of docs/configuration.md from action.yml, between the
// markers <!-- inputs:start -->/<!-- inputs:end --> and <!-- outputs:start -->/<!-- outputs:end -->,
// so the documentation never drifts from the contract. Inputs are grouped as action.yml groups
// them: a `# group: <name>` comment line before the first input of each group.
// `--check` only reports a difference (exit 1).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
export const DOC = 'docs/configuration.md';

const cell = (text) => String(text).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');

/** Splits "… Default: `3`." into the description and the default ("3" in backticks). */
export function splitDefault(description) {
  const match = /^(.*?)\s*Default: (.*?)\.?\s*$/s.exec(description ?? '');
  return match ? { text: match[1], default: match[2] } : { text: description ?? '', default: '' };
}

/** The inputs of action.yml in order, each with the group its `# group:` comment opened. */
export function groupedInputs(actionYml) {
  const doc = YAML.parseDocument(actionYml);
  const inputs = doc.get('inputs');
  let group = null;
  return inputs.items.map((pair, i) => {
    // The yaml parser hangs the comment above the first entry on the map itself.
    const comment = pair.key.commentBefore ?? (i === 0 ? inputs.commentBefore : undefined) ?? '';
    const opened = /^\s*group:\s*(.+?)\s*$/m.exec(comment);
    if (opened) group = opened[1];
    if (!group) throw new Error(`action.yml: input ${pair.key.value} comes before any "# group:" comment`);
    return { name: String(pair.key.value), group, spec: pair.value.toJSON() };
  });
}

export function tables(actionYml) {
  const rows = groupedInputs(actionYml).map(({ name, group, spec }) => {
    const { text, default: documented } = splitDefault(spec.description);
    // A declared default (only github-token has one) is shown as written in action.yml.
    const shownDefault = spec.default === undefined ? documented : `\`${spec.default}\``;
    return { group, row: `| \`${name}\` | ${cell(shownDefault)} | ${cell(text)} |` };
  });
  const sections = [];
  for (const { group, row } of rows) {
    if (sections.at(-1)?.group !== group) sections.push({ group, rows: [] });
    sections.at(-1).rows.push(row);
  }
  const action = YAML.parse(actionYml);
  const outputs = Object.entries(action.outputs ?? {}).map(
    ([name, spec]) => `| \`${name}\` | ${cell(spec.description)} |`,
  );
  return {
    inputs: sections
      .map((s) =>
        [`### ${s.group}`, '', '| Name | Default | Description |', '| --- | --- | --- |', ...s.rows].join('\n'),
      )
      .join('\n\n'),
    outputs: ['| Name | Description |', '| --- | --- |', ...outputs].join('\n'),
  };
}

export function fill(doc, section, table) {
  const start = `<!-- ${section}:start -->`;
  const end = `<!-- ${section}:end -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${DOC} lacks the markers ${start} … ${end}`);
  return `${doc.slice(0, from + start.length)}\n${table}\n${doc.slice(to)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const docPath = `${root}${DOC}`;
  const before = readFileSync(docPath, 'utf8');
  const t = tables(readFileSync(`${root}action.yml`, 'utf8'));
  const after = fill(fill(before, 'inputs', t.inputs), 'outputs', t.outputs);
  if (process.argv.includes('--check')) {
    if (after !== before) {
      console.error(`${DOC} tables differ from action.yml; run: node scripts/gen-config-tables.mjs`);
      process.exit(1);
    }
  } else if (after !== before) {
    writeFileSync(docPath, after);
    console.log(`${DOC} tables updated from action.yml`);
  }
}
