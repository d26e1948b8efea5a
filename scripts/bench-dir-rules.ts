// Rules per directory (src/review/dir-rules.ts) for a PR that chose its folders to be slow: 20,000
// changed files, each 100 folders deep in a chain of its own (2,000,001 folders), against a real
// repository with rules files at the root, one level down and 100 levels down. Target ≤ 1 s, the
// median of 5 first rounds (a later round of the run asks git nothing it asked before).
// BENCH_ONLY=dir-rules runs just this part.
import { performance } from 'node:perf_hooks';
import { directoryRulesLookup } from '../src/review/dir-rules.js';
import { createGitSandbox } from '../test/fakes/git-sandbox.js';

const ms = (n: number) => `${n.toFixed(0)} ms`;

export async function dirRulesBenchRows(): Promise<[string, string, string][]> {
  const deep = (top: string) => [top, ...Array.from({ length: 99 }, (_v, i) => `d${i + 1}`)].join('/');
  const files = Array.from({ length: 20_000 }, (_v, i) => `${deep(`p${i}`)}/f.ts`);
  const s = await createGitSandbox({
    baseFiles: {
      'REVIEW.md': 'root rules\n',
      'p1/REVIEW.md': 'rules of p1\n',
      [`${deep('p9')}/REVIEW.md`]: 'rules 100 folders down (past the cap)\n',
    },
    prChanges: { 'x.txt': 'x\n' },
  });
  try {
    const samples: number[] = [];
    let found = '';
    let logged = '';
    for (let i = 0; i < 5; i++) {
      const lookup = directoryRulesLookup({ git: s.git, fileName: 'REVIEW.md', log: (l) => (logged = l) });
      const t = performance.now();
      const rules = await lookup(s.baseSha, files);
      samples.push(performance.now() - t);
      found = rules.map((r) => r.path).join(', ');
    }
    const median = samples.sort((a, b) => a - b)[2]!;
    const capped = /in (\d+) folders.*in the (\d+) shallowest/.exec(logged);
    const note = capped ? `${capped[2]} of ${capped[1]} folders looked at` : 'no cap reached';
    return [
      [
        'rules per folder: 20,000 files 100 folders deep',
        ms(median),
        `median of 5; ${note}; found ${found}; target ≤ 1 s`,
      ],
    ];
  } finally {
    await s.cleanup();
  }
}
