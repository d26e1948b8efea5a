// Nothing printed by the action can be read by the runner as a workflow command,
// and nothing printed shows a secret, whichever module produced the line.
import { describe, expect, it } from 'vitest';
import type { ActionIO, Annotation } from '../../src/domain/io.js';
import { guardedIO } from '../../src/report/guarded-io.js';
import { REDACTED } from '../../src/security/sanitize.js';

function recordingIO() {
  const lines: string[] = [];
  const annotations: Annotation[] = [];
  const note = (m: string, a?: Annotation) => {
    lines.push(...m.split('\n'));
    if (a) annotations.push(a);
  };
  const io: ActionIO = {
    info: (m) => lines.push(...m.split('\n')),
    warning: note,
    notice: note,
    error: note,
    setFailed: (m) => lines.push(...m.split('\n')),
    setOutput: () => undefined,
    setSecret: () => undefined,
    appendSummary: async () => undefined,
    prependSummary: async () => undefined,
  };
  return { io, lines, annotations };
}

// The runner reads a command at the start of a line after leading whitespace (actions/runner).
const COMMAND = /^\s*(?:::[A-Za-z-]+|##\[)/;
const HOSTILE = [
  'confirm: BUG-1 not confirmed (x\n::error::pwned)',
  '  ::set-output name=status::converged',
  '\t::add-mask::nothing',
  '::stop-commands::abc123\n::error::now unchecked',
  '##[error]legacy form\r::warning::after a bare CR',
  'a\u001b[31mred\u001b[0m line',
];

describe('guardedIO', () => {
  it.each(HOSTILE)('defuses workflow commands in %j on every channel', (text) => {
    const { io, lines } = recordingIO();
    const g = guardedIO(io, []);
    g.info(text);
    g.warning(text);
    g.notice(text);
    g.error(text, { title: text });
    g.setFailed(text);
    expect(lines.filter((l) => COMMAND.test(l))).toEqual([]);
    expect(lines.join('\n')).not.toContain('\u001b');
  });

  it('redacts exact values, including ones added after the guard was made, and secret formats', () => {
    const secrets: string[] = [];
    const { io, lines, annotations } = recordingIO();
    const g = guardedIO(io, secrets);
    secrets.push('late-added-FAKE-token');
    const stripe = ['sk', '_live_', 'FAKEfake0123456789abcdXYZ'].join('');
    g.info(`using late-added-FAKE-token and ${stripe}`);
    g.error('x', { title: `P1 ${stripe}` });
    expect(lines[0]).toBe(`using ${REDACTED} and ${REDACTED}`);
    expect(annotations[0]!.title).toBe(`P1 ${REDACTED}`);
  });
});
