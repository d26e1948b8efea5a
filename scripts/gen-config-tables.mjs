// Writes the generated parts of two pages, so the documentation never drifts from what it describes:
// - the input and output tables of docs/configuration.md from action.yml, between the markers
//   <!-- inputs:start -->/<!-- inputs:end --> and <!-- outputs:start -->/<!-- outputs:end -->. Inputs
//   are grouped as action.yml groups them: a `# group: <name>` comment line before the first input
//   of each group;
// - the agents table of docs/agents.md, between <!-- agents:start --> and <!-- agents:end -->: the
//   CLIs and their pinned versions from src/agents/cli-versions.ts, the agents the `agent` input
//   names, and the defaults of `agent-versions` and `cache-clis` from action.yml. What each CLI is
//   allowed and reports (AGENT_COLUMNS below) is written here, next to the check that every agent
//   has a row.
// `--check` only reports a difference (exit 1).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import YAML from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
export const DOC = 'docs/configuration.md';
const AGENTS_DOC = 'docs/agents.md';

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

export function fill(doc, section, table, file = DOC) {
  const start = `<!-- ${section}:start -->`;
  const end = `<!-- ${section}:end -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} lacks the markers ${start} … ${end}`);
  return `${doc.slice(0, from + start.length)}\n${table}\n${doc.slice(to)}`;
}

/** What each agent may do in each role and what it reports: the columns no source file holds. */
const AGENT_COLUMNS = {
  claude: {
    readOnly: '`--tools Read,Grep,Glob`',
    fixer: '`Bash,Edit,Write`, `acceptEdits`; resumes with `--resume`',
    model: 'yes',
    cost: 'yes',
    secrets: '`ANTHROPIC_API_KEY` (or `ANTHROPIC_BASE_URL` + key for a gateway)',
  },
  codex: {
    readOnly: 'sandbox `read-only`',
    fixer: 'sandbox `workspace-write`; resumes with `codex exec resume`',
    model: 'yes (session file)',
    cost: 'no',
    secrets: '`OPENAI_API_KEY` or `CODEX_API_KEY`',
  },
  opencode: {
    readOnly: 'edit, bash, webfetch, task, skill, todowrite denied',
    fixer: 'edit and bash allowed; resumes with `--session`',
    model: 'no (the report says "not reported by CLI")',
    cost: 'no',
    secrets: "the provider's key, e.g. `GOOGLE_GENERATIVE_AI_API_KEY`, `ANTHROPIC_API_KEY`",
  },
  gemini: {
    readOnly:
      '`tools.core` read_file, list_directory, glob, grep_search; default approval mode plus an admin policy ' +
      'denying write and shell tools',
    fixer: '`auto_edit` plus shell; resumes with `--resume`',
    model: 'yes',
    cost: 'no',
    secrets: '`GEMINI_API_KEY` (or `GOOGLE_GEMINI_BASE_URL` + key)',
  },
  command: { readOnly: '—', fixer: '—', model: 'no', cost: 'no', secrets: 'whatever your command needs' },
};

const AGENT_HEADINGS = [
  'agent',
  'CLI (pinned)',
  'reviewers / analyzer / gate',
  'fixer',
  'model reported',
  'cost reported',
  'secrets it needs',
];

/** The pinned CLIs of src/agents/cli-versions.ts (TypeScript, turned into a module by esbuild). */
export async function pinnedClis(source) {
  const { code } = await transform(source, { loader: 'ts', format: 'esm' });
  const { CLI_KINDS, CLI_PACKAGES } = await import(
    `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
  );
  return CLI_KINDS.map((kind) => ({ kind, ...CLI_PACKAGES[kind] }));
}

/** The agents table of docs/agents.md and the sentence that says how the CLIs are installed. */
export function agentsTable(actionYml, clis) {
  const inputs = YAML.parse(actionYml).inputs;
  const kinds = [...clis.map((c) => c.kind), 'command'];
  const named = inputs.agent.description;
  const unnamed = kinds.filter((k) => !new RegExp(`\\b${k}\\b`).test(named));
  if (unnamed.length) throw new Error(`action.yml: the agent input does not name ${unnamed.join(', ')}`);
  const columnless = kinds.filter((k) => !AGENT_COLUMNS[k]);
  const stale = Object.keys(AGENT_COLUMNS).filter((k) => !kinds.includes(k));
  if (columnless.length || stale.length) {
    throw new Error(`scripts/gen-config-tables.mjs: AGENT_COLUMNS lacks ${columnless} / has no agent ${stale}`);
  }
  const pinned = (kind) => {
    const cli = clis.find((c) => c.kind === kind);
    return cli ? `\`${cli.pkg}\` ${cli.version}` : 'your command line (`agent-command`)';
  };
  const rows = kinds.map((kind) => {
    const c = AGENT_COLUMNS[kind];
    return `| \`${kind}\` | ${[pinned(kind), c.readOnly, c.fixer, c.model, c.cost, c.secrets].map(cell).join(' | ')} |`;
  });
  const versions = splitDefault(inputs['agent-versions'].description).default;
  const cache = splitDefault(inputs['cache-clis'].description).default;
  return [
    '<!-- generated by scripts/gen-config-tables.mjs from src/agents/cli-versions.ts and action.yml -->',
    `| ${AGENT_HEADINGS.join(' | ')} |`,
    `|${' --- |'.repeat(AGENT_HEADINGS.length)}`,
    ...rows,
    '',
    'A CLI that is missing is installed at the version above',
    `(\`agent-versions\` picks others; default: ${versions}); \`cache-clis\` keeps the installs in the`,
    `Actions cache between runs (default: ${cache}).`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const actionYml = readFileSync(`${root}action.yml`, 'utf8');
  const t = tables(actionYml);
  const clis = await pinnedClis(readFileSync(`${root}src/agents/cli-versions.ts`, 'utf8'));
  const pages = [
    { file: DOC, update: (doc) => fill(fill(doc, 'inputs', t.inputs), 'outputs', t.outputs), from: 'action.yml' },
    {
      file: AGENTS_DOC,
      update: (doc) => fill(doc, 'agents', agentsTable(actionYml, clis), AGENTS_DOC),
      from: 'src/agents/cli-versions.ts and action.yml',
    },
  ];
  let drifted = false;
  for (const { file, update, from } of pages) {
    const before = readFileSync(`${root}${file}`, 'utf8');
    const after = update(before);
    if (after === before) continue;
    if (process.argv.includes('--check')) {
      console.error(`${file} tables differ from ${from}; run: node scripts/gen-config-tables.mjs`);
      drifted = true;
    } else {
      writeFileSync(`${root}${file}`, after);
      console.log(`${file} tables updated from ${from}`);
    }
  }
  if (drifted) process.exit(1);
}
