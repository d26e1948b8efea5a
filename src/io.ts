// The action's output sink (domain/io.ts) on @actions/core; main.ts wires it in.
import { readFile } from 'node:fs/promises';
import * as core from '@actions/core';
import type { Annotation, ActionIO } from './domain/io.js';

export function coreIO(): ActionIO {
  const props = (a?: Annotation) =>
    a
      ? { title: a.title, ...(a.file ? { file: a.file } : {}), ...(a.startLine ? { startLine: a.startLine } : {}) }
      : undefined;
  return {
    info: (m) => core.info(m),
    saveState: (name, value) => core.saveState(name, value),
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
    prependSummary: async (md) => {
      const file = process.env.GITHUB_STEP_SUMMARY;
      if (!file) return;
      const earlier = await readFile(file, 'utf8').catch(() => '');
      await core.summary.addRaw(md).addRaw(earlier).write({ overwrite: true });
    },
  };
}
