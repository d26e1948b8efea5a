// What `npm run eval` prints and writes: a line per case as it ends, and per configuration a summary.
import type { CaseResult } from './run-case.js';

const pct = (n: number, of: number) => (of ? `${n}/${of}` : '–');

export function caseLine(r: CaseResult): string {
  if (r.error) return `[${r.configuration}] ${r.case}: not judged: ${r.error}`;
  const others = Object.entries(r.otherFindings)
    .filter(([, n]) => n > 0)
    .map(([p, n]) => `${p}×${n}`)
    .join(' ');
  const fields = [
    `found ${r.found ? `yes (${r.found.priority} ${r.found.id})` : 'no'}`,
    `agreement ${r.agreement ? `${r.agreement.by}/${r.agreement.of}` : '–'}`,
    `fixed ${r.fixed ? 'yes' : 'no'}`,
    `rounds ${r.rounds}`,
    `status ${r.status}`,
    `other findings ${others || '0'}`,
    `tokens ${r.tokens}`,
    `cost $${r.costUsd.toFixed(4)}`,
    `wall ${r.wallSeconds.toFixed(1)} s`,
    ...(r.setup ? [`setup ${r.setup}`] : []),
    ...(r.headTests ? [`head tests ${r.headTests}`] : []),
    ...(r.notRun ? [`not run: ${r.notRun}`] : []),
    ...(r.leftovers.length ? [`left in the checkout: ${r.leftovers.join(', ')}`] : []),
  ];
  return `[${r.configuration}] ${r.case}: ${fields.join(' · ')}`;
}

export interface Summary {
  configuration: string;
  cases: number;
  judged: number;
  found: number;
  /** Sum of reviewers agreeing over the found cases, of the sum of reviewers there. */
  agreement: { by: number; of: number };
  fixed: number;
  rounds: number;
  otherFindings: number;
  tokens: number;
  costUsd: number;
  wallSeconds: number;
}

export function summarise(configuration: string, results: CaseResult[]): Summary {
  const judged = results.filter((r) => !r.error);
  const sum = (f: (r: CaseResult) => number) => judged.reduce((n, r) => n + f(r), 0);
  return {
    configuration,
    cases: results.length,
    judged: judged.length,
    found: judged.filter((r) => r.found).length,
    agreement: { by: sum((r) => r.agreement?.by ?? 0), of: sum((r) => r.agreement?.of ?? 0) },
    fixed: judged.filter((r) => r.fixed).length,
    rounds: sum((r) => r.rounds),
    otherFindings: sum((r) => Object.values(r.otherFindings).reduce((a, b) => a + b, 0)),
    tokens: sum((r) => r.tokens),
    costUsd: sum((r) => r.costUsd),
    wallSeconds: sum((r) => r.wallSeconds),
  };
}

/** Per configuration: its cases' rows, then its summary row. */
export function markdownTables(results: CaseResult[], summaries: Summary[]): string {
  const head =
    '| case | found | agreement | fixed | rounds | status | other findings | tokens | cost (USD) | wall (s) |\n' +
    '|---|---|---|---|---:|---|---:|---:|---:|---:|';
  const out: string[] = [];
  for (const s of summaries) {
    out.push(`### ${s.configuration}`, '', head);
    for (const r of results.filter((x) => x.configuration === s.configuration)) {
      if (r.error) {
        out.push(`| ${r.case} | not judged: ${r.error.split('\n')[0]!.replace(/\|/g, '\\|')} | | | | | | | | |`);
        continue;
      }
      const others = Object.values(r.otherFindings).reduce((a, b) => a + b, 0);
      const agreement = r.agreement ? `${r.agreement.by}/${r.agreement.of}` : '–';
      out.push(
        `| ${r.case} | ${r.found ? `yes (${r.found.priority})` : 'no'} | ` +
          `${agreement} | ${r.fixed ? 'yes' : 'no'} | ${r.rounds} | ` +
          `${r.status} | ${others} | ${r.tokens} | ${r.costUsd.toFixed(4)} | ${r.wallSeconds.toFixed(1)} |`,
      );
    }
    out.push(
      `| **all ${s.cases}** | **${pct(s.found, s.judged)}** | **${pct(s.agreement.by, s.agreement.of)}** | ` +
        `**${pct(s.fixed, s.judged)}** | ${s.rounds} | | ${s.otherFindings} | ${s.tokens} | ` +
        `${s.costUsd.toFixed(4)} | ${s.wallSeconds.toFixed(1)} |`,
      '',
    );
  }
  return out.join('\n');
}
