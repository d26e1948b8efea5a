// What the reviewers and the fixer are told of the project's installation: the context files with
// each command the action ran on the head (setup, the head's test run), its exit code and the end
// of its output, fenced as untrusted data; and the parts of their prompts that say what ran.
import type { CommandsRun, SetupRecord } from '../domain/findings.js';
import type { VerifyResult } from '../domain/fix.js';
import { fenceAsData } from '../security/untrusted.js';
import { fillTemplate, type Prompts } from './prompts.js';

/** The context files of a review, by name: one for setup, one for the head's test run; none when nothing ran. */
export function setupContextFiles(rec: SetupRecord): Record<string, string> {
  const files: Record<string, string> = {};
  if (rec.setup) files['setup.md'] = runFile('setup', rec.setup);
  if (rec.headTests) files['head-tests.md'] = runFile('the verify commands on this head', rec.headTests);
  return files;
}

/** The reviewers' {{projectSetup}}: '' when neither setup nor the head's test run is set. */
export function reviewerSetupPrompt(prompts: Prompts, rec: SetupRecord | null, setupSet: boolean): string {
  if (!rec || (!rec.setup && !rec.headTests && !rec.notRun)) return '';
  const lines = [
    setupSet ? `- setup: ${status(rec.setup, rec.notRun)}` : '- setup: not set (nothing was installed)',
    `- the verify commands: ${status(rec.headTests, rec.notRun)}`,
  ];
  const files = Object.keys(setupContextFiles(rec)).map((f) => `\`${f}\``);
  const runFiles = files.length ? ` (${files.join(', ')})` : '';
  return fillTemplate(prompts['setup-review'], { projectRuns: lines.join('\n'), runFiles }).trimEnd();
}

/** The fixer's {{installed}} when setup is set: each setup command and how it ended. */
export function fixerSetupPrompt(prompts: Prompts, run: CommandsRun, commands: readonly string[]): string {
  const lines = commands.map((command, i) => `  - \`${command}\`: ${resultOf(run.results[i])}`);
  return fillTemplate(prompts['fixer-setup'], { setupRuns: lines.join('\n') }).trimEnd();
}

function status(run: CommandsRun | null, notRun: string | undefined): string {
  if (!run) return `not run${notRun ? ` (${notRun})` : ''}`;
  const failed = run.results.at(-1);
  return run.ok
    ? `passed (${run.results.map((r) => `\`${r.command}\``).join(', ')})`
    : `failed: \`${failed?.command ?? ''}\` ${failed ? how(failed) : ''}`.trimEnd();
}

function resultOf(r: VerifyResult | undefined): string {
  if (!r) return 'not run (an earlier command failed)';
  return r.exitCode === 0 && !r.timedOut ? 'passed' : `failed, ${how(r)}`;
}

const how = (r: VerifyResult) => (r.timedOut ? 'timed out' : `exited with ${r.exitCode ?? 'a signal'}`);

function runFile(what: string, run: CommandsRun): string {
  const parts = [`# What the action ran: ${what}`, run.ok ? 'Every command passed.' : 'A command failed.'];
  for (const r of run.results) {
    parts.push(`## \`${r.command}\`\n\n${how(r)} after ${Math.round(r.durationMs / 1000)} s`);
    parts.push(fenceAsData('The end of its output', r.outputTail || '(no output)'));
  }
  return `${parts.join('\n\n')}\n`;
}
