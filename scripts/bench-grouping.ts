// Grouping speed: 500 mixed findings from 5 reviewers, and 5 reviewers × the same 1,000 distinct
// findings, all in one file, half of them without a line (those must be compared with every group
// of the file; target ≤ 200 ms), and that panel with findings of several places. BENCH_ONLY=grouping
// runs just this part.
import { performance } from 'node:perf_hooks';
import { groupFindings, normalizeFinding } from '../src/review/findings.js';

const ms = (n: number) => `${n.toFixed(0)} ms`;

function median(runs: number, work: () => void): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    work();
    samples.push(performance.now() - t);
  }
  return samples.sort((a, b) => a - b)[runs >> 1]!;
}

export function groupingBenchRows(): [string, string, string][] {
  const rows: [string, string, string][] = [];
  const raw = Array.from({ length: 500 }, (_, i) => ({
    priority: (['P0', 'P1', 'P2', 'P3'] as const)[i % 4]!,
    category: ['security', 'quality', 'performance'][i % 3]!,
    file: `src/file-${i % 25}.ts`,
    line: (i * 7) % 300,
    title: `Problem number ${i % 60} in handler`,
    description: '',
  }));
  const t = performance.now();
  const grouped = groupFindings(raw.map((f, i) => normalizeFinding(f, `reviewer-${(i % 5) + 1}`)));
  rows.push(['group 500 findings from 5 reviewers', ms(performance.now() - t), `${grouped.length} groups`]);

  const oneFile = Array.from({ length: 5000 }, (_, i) => ({
    priority: (['P0', 'P1', 'P2', 'P3'] as const)[i % 4]!,
    category: ['security', 'quality', 'performance'][i % 3]!,
    file: 'src/huge.ts',
    line: i % 2 ? null : (i % 1000) * 5 + 1,
    title: [0, 1, 2, 3].map((k) => `w${((i % 1000) * 7919 + k * 104729) % 997}`).join(' '),
    description: '',
  }));
  const oneFileMs = median(5, () =>
    groupFindings(oneFile.map((f, j) => normalizeFinding(f, `reviewer-${(j % 5) + 1}`))),
  );
  rows.push(['group 5 × 1,000 findings in one file', ms(oneFileMs), 'median of 5; target ≤ 200 ms']);

  // The same panel where the first reviewer names each problem at three places (two more files).
  const spread = oneFile.map((f, j) =>
    j % 5 || f.line === null
      ? f
      : {
          ...f,
          locations: [f, { ...f, file: 'src/copy-1.ts' }, { ...f, file: 'src/copy-2.ts' }],
        },
  );
  const spreadMs = median(5, () => groupFindings(spread.map((f, j) => normalizeFinding(f, `reviewer-${(j % 5) + 1}`))));
  rows.push(['the same, reviewer 1 naming 3 places each', ms(spreadMs), 'median of 5']);
  return rows;
}
