// The end-to-end suite starts the bundle on the Node that action.yml names, where it can.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { ACTION_NODE_VERSION, actionNode } from './action-node.js';

const actionYml = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8');
const using = (parse(actionYml) as { runs: { using: string } }).runs.using;

it('pins a Node of the major version action.yml runs on', () => {
  expect(using).toMatch(/^node\d+$/);
  expect(`node${ACTION_NODE_VERSION.split('.')[0]}`).toBe(using);
});

const onLinuxX64 = process.platform === 'linux' && process.arch === 'x64' && !process.env.E2E_NODE;
it.runIf(onLinuxX64)('starts the bundle with that Node (installed by the global setup)', () => {
  expect(execFileSync(actionNode(), ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${ACTION_NODE_VERSION}`);
});
