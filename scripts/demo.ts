// npm run demo: runs the real bundled action (dist/index.js) against the embedded
// sandbox — a fake GitHub on 127.0.0.1 holding PR #7, a bare git origin, and a
// scripted agent — and prints the reports it posted and the commits it pushed.
import { createWorld } from '../test/e2e/harness.js';
import { PLANTED_BUG_RULES } from '../test/e2e/scenarios.js';

const line = (title: string) => console.log(`\n${'='.repeat(20)} ${title} ${'='.repeat(Math.max(0, 60 - title.length))}`);

const world = await createWorld();
try {
  line('Sandbox');
  console.log(`fake GitHub API : ${world.github.url}`);
  console.log(`origin (bare)   : ${world.sandbox.originDir}`);
  console.log(`PR #7           : ${world.sandbox.headRef} -> ${world.sandbox.baseRef}, head ${world.sandbox.headSha.slice(0, 7)} (add() returns a - b)`);
  console.log('agents          : scripted reviewer finds the bug; scripted fixer fixes it; verify: npm test');

  const result = await world.run({ rules: PLANTED_BUG_RULES, inputs: { verify: 'npm test', 'max-rounds': '3' } });

  line('Action log (node dist/index.js)');
  console.log((result.stdout + result.stderr).split('\n').filter((l) => !l.startsWith('::add-mask::')).join('\n'));
  for (const [i, c] of world.github.comments(7).entries()) {
    line(`Comment ${i + 1} posted by ${c.user.login}`);
    console.log(c.body);
  }
  line('Commits on the PR branch in origin (newest first)');
  for (const c of await world.headLog()) console.log(`${c.sha.slice(0, 7)} ${c.subject}${c.body ? `\n        ${c.body.trim().replace(/\n/g, '\n        ')}` : ''}`);
  line('Outputs');
  for (const [k, v] of Object.entries(result.outputs)) console.log(`${k.padEnd(12)} ${v}`);
  line('Result');
  console.log(`exit code ${result.code}; status ${result.outputs.status}; ${world.github.comments(7).length} comments; ${world.github.writes().length} write requests`);
  process.exitCode = result.code === 0 && result.outputs.status === 'converged' ? 0 : 1;
} finally {
  await world.close();
}
