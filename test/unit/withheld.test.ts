// The words of tools that cannot work in a sandboxed call, recognised (src/commands/withheld.ts).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { withheldBySandbox } from '../../src/commands/withheld.js';

let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'withheld-'));
  // Stands for the runner's daemon socket: only its existence is looked at.
  writeFileSync(path.join(dir, 'docker.sock'), '');
  env = { DOCKER_HOST: `unix://${path.join(dir, 'docker.sock')}` };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it.each([
  [
    'sudo 1.9.10+ under no_new_privs',
    'sudo: The "no new privileges" flag is set, which prevents sudo from running as root.',
  ],
  ['an older sudo', "sudo: effective uid is not 0, is /usr/bin/sudo on a file system with the 'nosuid' option set"],
  ['no rule, no terminal', 'sudo: a terminal is required to read the password; either use the -S option'],
  ['no rule, -n', 'sudo: a password is required'],
  ['no rule at all', 'prl-0123456789 is not in the sudoers file.  This incident will be reported.'],
])('sudo: %s', (_, output) => {
  expect(withheldBySandbox(`npm ERR! something\n${output}\n`, env)).toMatch(/^`sudo` cannot work here/);
});

it.each([
  [
    'the docker CLI',
    'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?',
  ],
  [
    'docker compose',
    'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock',
  ],
  [
    'an older CLI',
    'Got permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock',
  ],
  [
    'Testcontainers for Java',
    'java.lang.IllegalStateException: Could not find a valid Docker environment. Please see logs',
  ],
  ['Testcontainers for Node', 'Error: Could not find a working container runtime strategy'],
  ['testcontainers-python', "DockerException: Error while fetching server API version: ('Connection aborted.', ...)"],
])('Docker: %s', (_, output) => {
  expect(withheldBySandbox(output, env)).toMatch(/^Docker cannot work here/);
});

const runnerHasDocker = ['/var/run/docker.sock', '/run/docker.sock'].some((s) => existsSync(s));

it.runIf(!runnerHasDocker)('says nothing of Docker where the runner has no daemon socket', () => {
  const noDaemon = { DOCKER_HOST: `unix://${path.join(dir, 'missing.sock')}` };
  expect(withheldBySandbox('Cannot connect to the Docker daemon at unix:///nowhere.sock', noDaemon)).toBeNull();
});

it('says nothing of a failure in other words', () => {
  expect(withheldBySandbox('AssertionError: expected 5 to be -1\nnpm ERR! Test failed.', env)).toBeNull();
});
