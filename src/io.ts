// The action's output sink: logs, outputs, secrets, job summary and
// annotations. main.ts wires @actions/core; the coordinator only sees this interface.
import * as core from '@actions/core';

export interface Annotation {
  title: string;
  file?: string;
  startLine?: number;
}

export interface ActionIO {
  info(message: string): void;
  warning(message: string, annotation?: Annotation): void;
  notice(message: string, annotation?: Annotation): void;
  error(message: string, annotation?: Annotation): void;
  setOutput(name: string, value: string): void;
  setSecret(value: string): void;
  setFailed(message: string): void;
  appendSummary(markdown: string): Promise<void>;
}

export function coreIO(): ActionIO {
  const props = (a?: Annotation) => (a ? { title: a.title, file: a.file, startLine: a.startLine } : undefined);
  return {
    info: (m) => core.info(m),
    warning: (m, a) => core.warning(m, props(a)),
    notice: (m, a) => core.notice(m, props(a)),
    error: (m, a) => core.error(m, props(a)),
    setOutput: (n, v) => core.setOutput(n, v),
    setSecret: (v) => core.setSecret(v),
    setFailed: (m) => core.setFailed(m),
    appendSummary: async (md) => {
      // Without GITHUB_STEP_SUMMARY (a local run) the summary only goes to the log.
      if (!process.env.GITHUB_STEP_SUMMARY) return;
      await core.summary.addRaw(md, true).write();
    },
  };
}
