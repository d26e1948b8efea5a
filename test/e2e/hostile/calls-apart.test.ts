// One call cannot reach the next (two of the threats found on real runners, docs/security.md): a
// verify command plants a git fsmonitor hook in its HOME's ~/.gitconfig and leaves a process that
// keeps starting its successor; a later call (the next round's before-review hook runs `git status`)
// must not run the planted hook, and nothing of the verify call may live on. On both privilege
// paths; the loop still fixes and pushes.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SAMPLE_PROJECT } from '../../fakes/git-sandbox.js';
import { createWorld, type World } from '../harness.js';
import { PRIVILEGE_PATHS } from '../runner-user.js';
import { PLANTED_BUG_RULES } from '../scenarios.js';

let world: World;
let loot: string;

beforeEach(async () => {
  const hooks = 'hooks:\n  before-review: git status --porcelain >/dev/null 2>&1; true\n';
  world = await createWorld({ sandbox: { baseFiles: { ...SAMPLE_PROJECT, '.github/pr-review-loop.yml': hooks } } });
  loot = path.join(world.dir, 'agent-io', 'loot');
  mkdirSync(loot);
  chmodSync(loot, 0o777);
  // What a later call runs if the planted config reaches it: it says which call it ran in.
  writeFileSync(
    path.join(loot, 'monitor.sh'),
    '#!/bin/sh\necho "ran in ${REVIEW_LOOP_HOOK:-a call}" >> "$SPY_LOOT/stolen.txt"\n',
    { mode: 0o755 },
  );
  // A process that starts its successor and exits, again and again.
  writeFileSync(
    path.join(loot, 'hop.sh'),
    '#!/bin/sh\nsleep 0.2\necho alive >> "$SPY_LOOT/hop.txt"\n' + 'setsid /bin/sh "$SPY_LOOT/hop.sh" hop-marker &\n',
    { mode: 0o755 },
  );
  const plant = [
    '#!/bin/sh',
    'printf "[core]\\n\\tfsmonitor = %s\\n" "$SPY_LOOT/monitor.sh" >> "$HOME/.gitconfig"',
    'setsid env -u REVIEW_LOOP_INVOCATION_ID /bin/sh "$SPY_LOOT/hop.sh" hop-marker >/dev/null 2>&1 &',
    'exit 0',
  ].join('\n');
  writeFileSync(path.join(loot, 'plant.sh'), `${plant}\n`, { mode: 0o755 });
});
afterEach(async () => {
  spawnSync('pkill', ['-KILL', '-f', 'hop-marker']);
  await world.close();
});

it.each(PRIVILEGE_PATHS)(
  'keeps what one call plants or leaves running away from the next, $how',
  async ({ asRunnerUser }) => {
    const r = await world.run({
      asRunnerUser,
      rules: PLANTED_BUG_RULES,
      inputs: { 'verify-env': 'SPY_LOOT', verify: `sh ${path.join(loot, 'plant.sh')}\nnpm test` },
      extraEnv: { SPY_LOOT: loot },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.status).toBe('converged');
    // The planted fsmonitor never ran in a later call.
    const stolen = path.join(loot, 'stolen.txt');
    expect(existsSync(stolen) ? readFileSync(stolen, 'utf8') : '').toBe('');
    // The hopping process did not outlive the verify call: nothing of it runs, and it wrote at most
    // what it could before the call ended.
    const running = spawnSync('pgrep', ['-f', 'hop-marker'], { encoding: 'utf8' }).stdout.trim();
    expect(running).toBe('');
    // The loop still did its job.
    expect((await world.headLog())[0]!.body).toContain('Review-Loop-Round: 1');
  },
);
