// The pull_request event GitHub sends for a PR from a fork of a public repository (the
// webhooks-examples fixture), pointed at a world's PR head, for runs that must look like a fork's.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT, type World } from './harness.js';

/** The fork the PR comes from. */
export const FORK = 'stranger/demo-repo';

/** Writes the event into the world's folder; returns its path, for GITHUB_EVENT_PATH. */
export async function forkEvent(w: World): Promise<string> {
  const event = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/events/pull_request.opened.fork.json'), 'utf8'));
  event.number = 7;
  Object.assign(event.pull_request, { number: 7 });
  Object.assign(event.pull_request.head, { sha: w.sandbox.headSha, ref: w.sandbox.headRef });
  Object.assign(event.pull_request.head.repo, { full_name: FORK, name: 'demo-repo', owner: { login: 'stranger' } });
  Object.assign(event.pull_request.base, { sha: w.sandbox.baseSha, ref: w.sandbox.baseRef });
  const file = path.join(w.dir, 'fork-event.json');
  await writeFile(file, JSON.stringify(event));
  return file;
}
