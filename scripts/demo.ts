// npm run demo: runs the real bundled action (dist/index.js) against the embedded
// sandbox — a fake GitHub on 127.0.0.1 holding PR #7, a bare git origin, and a
// scripted agent — and prints the reports it posted and the commits it pushed.
import { createWorld } from '../test/e2e/harness.js';
import { BUG_FINDING, FIXED_MATH, reviewerAnswer } from '../test/e2e/scenarios.js';

const line = (title: string) =>
  console.log(`\n${'='.repeat(20)} ${title} ${'='.repeat(Math.max(0, 60 - title.length))}`);

const world = await createWorld();
try {
  line('Sandbox');
  console.log(`fake GitHub API : ${world.github.url}`);
  console.log(`origin (bare)   : ${world.sandbox.originDir}`);
  console.log(
    `PR #7           : ${world.sandbox.headRef} -> ${world.sandbox.baseRef}, head ${world.sandbox.headSha.slice(0, 7)} (add() returns a - b)`,
  );
  console.log(
    'agents          : scripted reviewer finds the bug (with a suggested change); scripted fixer fixes it; verify: npm test',
  );

  // The reviewer gives the exact new line too: the inline comment holds a committable suggestion.
  const rules = [
    { role: 'reviewer', round: 1, answer: reviewerAnswer([{ ...BUG_FINDING, replacement: '  return a + b;' }]) },
    { role: 'reviewer', answer: reviewerAnswer([]) },
    { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } },
  ];
  const result = await world.run({ rules, inputs: { verify: 'npm test', 'max-rounds': '3' } });

  line('Action log (node dist/index.js)');
  console.log(
    (result.stdout + result.stderr)
      .split('\n')
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n'),
  );
  for (const [i, c] of world.github.comments(7).entries()) {
    const hidden = c.minimizedReason ? ` (minimized as ${c.minimizedReason}: a newer report supersedes it)` : '';
    line(`Comment ${i + 1} posted by ${c.user.login}${hidden}`);
    console.log(c.body);
  }
  for (const review of world.github.state.reviews(7)) {
    line(`Review by ${review.user.login}: ${review.state}`);
    console.log(review.body);
    for (const t of world.github.state.threads(7).filter((x) => x.comments[0]?.reviewId === review.id)) {
      const where = `${t.path}:${t.startLine ? `${t.startLine}-` : ''}${t.line}`;
      console.log(`\n--- thread on ${where} · ${t.isResolved ? `resolved by ${t.resolvedBy}` : 'open'}`);
      for (const c of t.comments) console.log(`[${c.author}] ${c.body}\n`);
    }
  }
  line('Commits on the PR branch in origin (newest first)');
  for (const c of await world.headLog())
    console.log(
      `${c.sha.slice(0, 7)} ${c.subject}${c.body ? `\n        ${c.body.trim().replace(/\n/g, '\n        ')}` : ''}`,
    );
  line('Outputs');
  for (const [k, v] of Object.entries(result.outputs)) console.log(`${k.padEnd(12)} ${v}`);
  line('Result');
  const threads = world.github.state.threads(7);
  console.log(
    `exit code ${result.code}; status ${result.outputs.status}; ${world.github.comments(7).length} comments ` +
      `(${world.github.comments(7).filter((c) => c.minimizedReason).length} minimized); ${threads.length} review thread(s) ` +
      `(${threads.filter((t) => t.isResolved).length} resolved); ${world.github.writes().length} write requests`,
  );
  process.exitCode = result.code === 0 && result.outputs.status === 'converged' ? 0 : 1;
} finally {
  await world.close();
}
