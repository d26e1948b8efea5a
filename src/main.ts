import * as core from '@actions/core';
import { cancelOnSignals } from './cancellation.js';
import { coreIO } from './io.js';
import { redactSecrets } from './security/sanitize.js';
import { run } from './run.js';

// run() never throws by design; the catch is a last guard so a bug there still fails the step,
// with the token (and any secret-shaped text) redacted like every other message.
const token = process.env['INPUT_GITHUB-TOKEN'] ?? '';
const cancellation = cancelOnSignals();
const deps = { env: process.env, io: coreIO(), cwd: process.cwd(), timing: testTiming(process.env), cancellation };
await run(deps).catch((e: unknown) =>
  core.setFailed(redactSecrets(`internal error: ${String(e)}`, token ? [token] : [])),
);
// A cancelled run has reported and written its outputs; a wait it abandoned (a poll for checks)
// must not hold the process until the runner kills it.
if (cancellation.signal.aborted) process.exit();

/**
 * The end-to-end tests start this bundle the way the runner does, so the only way they can
 * shorten GitHub's retry back-off and the wait for a pushed head is the environment. Not
 * documented for users; anything but a whole number of milliseconds is ignored.
 */
function testTiming(env: NodeJS.ProcessEnv): { retryBaseMs?: number; headPollMs?: number; checksPollMs?: number } {
  const ms = (v: string | undefined) => (v && /^\d{1,6}$/.test(v) && Number(v) > 0 ? Number(v) : undefined);
  const retryBaseMs = ms(env.PR_REVIEW_LOOP_RETRY_BASE_MS);
  const headPollMs = ms(env.PR_REVIEW_LOOP_HEAD_POLL_MS);
  const checksPollMs = ms(env.PR_REVIEW_LOOP_CHECKS_POLL_MS);
  return {
    ...(retryBaseMs ? { retryBaseMs } : {}),
    ...(headPollMs ? { headPollMs } : {}),
    ...(checksPollMs ? { checksPollMs } : {}),
  };
}
