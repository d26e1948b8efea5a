// The review report's setup section: what the action ran on the head before its review (the
// `setup` commands, the head's test run), how long each took, and the end of a failed command's
// output. That output was written by the PR's own scripts and tests: fenced, neutralised like
// agent text, already redacted where it was kept (commands/verify.ts).
import type { CommandsRun, ReviewRoundRecord } from '../domain/findings.js';
import type { VerifyResult } from '../domain/fix.js';
import { code, fenced, fmtDuration, inline, table } from './format.js';

export function setupSection(rec: ReviewRoundRecord): string | null {
  const s = rec.setup;
  if (!s || (!s.setup && !s.headTests && !s.notRun)) return null;
  const rows: string[][] = [];
  const tails: string[] = [];
  const add = (what: string, run: CommandsRun | null) => {
    if (!run) return;
    rows.push([what, run.ok ? '✅ passed' : '❌ failed', fmtDuration(run.durationMs), commands(run.results)]);
    const failed = run.ok ? undefined : run.results.at(-1);
    if (failed)
      tails.push(`The end of ${code(failed.command)}'s output (${how(failed)}):\n\n${fenced(tail(failed), 'text')}`);
  };
  add('setup', s.setup);
  add('tests on this head', s.headTests);
  const lines = [`### Setup and tests on ${code(rec.headSha.slice(0, 7))}`];
  if (rows.length) lines.push(table(['Run', 'Result', 'Time', 'Commands'], rows));
  if (s.environment) {
    lines.push(
      "Setup failed, maybe in the environment (a registry, the runner's tools): the PR changes no manifest, " +
        'lock file or file a setup command names, so this is no finding. The review went on.',
    );
  } else if (s.setup && !s.setup.ok) {
    lines.push('Setup failed; the review went on.');
  }
  if (s.notRun) lines.push(`Not run: ${inline(s.notRun, 500)}.`);
  return [...lines, ...tails].join('\n\n');
}

function commands(results: VerifyResult[]): string {
  return results.map((r) => code(r.command)).join(', ') || '—';
}

function how(r: VerifyResult): string {
  return r.timedOut ? 'timed out' : `exit code ${r.exitCode === null ? '—' : r.exitCode}`;
}

const tail = (r: VerifyResult) => r.outputTail || '(no output)';
