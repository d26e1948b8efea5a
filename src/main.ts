import * as core from '@actions/core';
import { coreIO } from './io.js';
import { run } from './run.js';

// run() never throws by design; the catch is a last guard so a bug there still fails the step.
await run({ env: process.env, io: coreIO(), cwd: process.cwd() }).catch((e: unknown) => core.setFailed(`internal error: ${String(e)}`));
