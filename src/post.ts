// The action's `post:` step (action.yml, `post-if: always()`): the runner runs it after the job's
// steps, also when the main step was killed. A run that ended normally removed its sandbox itself;
// after a kill, what is left of it is removed here (src/sandbox/leftover.ts).
import * as core from '@actions/core';
import { cleanUpLeftover, parseSandboxRecord } from './sandbox/leftover.js';

const record = parseSandboxRecord(core.getState('sandbox'));
if (record) {
  try {
    for (const line of await cleanUpLeftover(record)) core.info(`pr-review-loop post: ${line}`);
  } catch (e) {
    core.warning(`pr-review-loop post: the sandbox user ${record.name} could not be removed: ${String(e)}`);
  }
}
