// Every message the action prints to the log, an annotation or the failure line passes through
// here, whoever produced it: secrets are redacted (sanitize.ts) and workflow commands defused
// (neutralise.ts). Agent answers, verify and hook output, finding titles and file names reach
// log lines through many modules; guarding the one output sink covers them all.
import type { ActionIO, Annotation } from '../domain/io.js';
import { neutraliseLog } from '../security/neutralise.js';
import { redactSecrets } from '../security/sanitize.js';

/**
 * `secrets` is read at each call, so values added after the guard was made (the token, once the
 * inputs are read) are redacted too.
 */
export function guardedIO(io: ActionIO, secrets: readonly string[]): ActionIO {
  const safe = (m: string) => neutraliseLog(redactSecrets(m, secrets));
  const note = (a?: Annotation): Annotation | undefined => (a ? { ...a, title: safe(a.title) } : undefined);
  return {
    info: (m) => io.info(safe(m)),
    warning: (m, a) => io.warning(safe(m), note(a)),
    notice: (m, a) => io.notice(safe(m), note(a)),
    error: (m, a) => io.error(safe(m), note(a)),
    setFailed: (m) => io.setFailed(safe(m)),
    setOutput: (n, v) => io.setOutput(n, v),
    setSecret: (v) => io.setSecret(v),
    appendSummary: (md) => io.appendSummary(md),
    prependSummary: (md) => io.prependSummary(md),
  };
}
