// Every message the action prints to the log, an annotation or the failure line passes through
// here, whoever produced it: secrets are redacted (sanitize.ts) and workflow commands defused
// (neutralise.ts); the job summary loses every known secret value. Agent answers, verify and hook
// output, finding titles and file names reach log lines through many modules; guarding the one
// output sink covers them all.
import type { ActionIO, Annotation } from '../domain/io.js';
import { neutraliseLog } from '../security/neutralise.js';
import { knownValues, type Secrets } from '../security/run-secrets.js';
import { redactSecrets } from '../security/sanitize.js';
import { redactExactValues } from '../security/secret-patterns.js';

/**
 * `secrets` is read at each call, so values added after the guard was made (the token, once the
 * inputs are read, and what the run's secrets learned since: run-secrets.ts) are redacted too.
 */
export function guardedIO(io: ActionIO, secrets: Secrets): ActionIO {
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
    // The summary's markdown was sanitised where it was made (publish.ts); a value learned since
    // (run-secrets.ts) is taken out here too.
    appendSummary: (md) => io.appendSummary(redactExactValues(md, knownValues(secrets))),
    prependSummary: (md) => io.prependSummary(redactExactValues(md, knownValues(secrets))),
    ...(io.saveState ? { saveState: (name: string, value: string) => io.saveState!(name, value) } : {}),
  };
}
