// A world for the token hunter (test/fakes/token-hunter.mjs): the hunter runs as a before-review
// hook (and wherever a test puts it: an agent, a verify command), appends what it found to a log
// every sandbox user may write, and looks for the secrets a file lists (in a variable, they
// would be in every environ).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SAMPLE_PROJECT } from '../fakes/git-sandbox.js';
import { agentScript, createWorld, type World } from './harness.js';

export const HUNTER = agentScript('token-hunter.mjs');

export interface HuntingWorld {
  world: World;
  huntLog: string;
  needlesFile: string;
  /** Each hunt's JSON line, parsed. */
  hunts<T>(): T[];
}

export async function huntingWorld(needles: readonly string[]): Promise<HuntingWorld> {
  const hooks = `hooks:\n  before-review: node ${HUNTER} hook\n`;
  const world = await createWorld({
    sandbox: { baseFiles: { ...SAMPLE_PROJECT, '.github/pr-review-loop.yml': hooks } },
  });
  const huntLog = path.join(world.dir, 'agent-io', 'hunts.jsonl');
  writeFileSync(huntLog, '');
  chmodSync(huntLog, 0o666);
  const needlesFile = path.join(world.dir, 'agent-io', 'needles.txt');
  writeFileSync(needlesFile, `${needles.join('\n')}\n`, { mode: 0o644 });
  const hunts = <T>(): T[] =>
    readFileSync(huntLog, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as T);
  return { world, huntLog, needlesFile, hunts };
}
