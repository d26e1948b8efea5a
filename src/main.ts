import * as core from '@actions/core';
import { coreIO } from './io.js';
import { redactSecrets } from './report/sanitize.js';
import { run } from './run.js';

// run() never throws by design; the catch is a last guard so a bug there still fails the step,
// with the token (and any secret-shaped text) redacted like every other message.
const token = process.env['INPUT_GITHUB-TOKEN'] ?? '';
await run({ env: process.env, io: coreIO(), cwd: process.cwd() }).catch((e: unknown) =>
  core.setFailed(redactSecrets(`internal error: ${String(e)}`, token ? [token] : [])),
);
