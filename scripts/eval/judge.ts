// How a run is judged, from what the action wrote (its report JSON) and from a test it never saw:
// no model judges. "found": a round-1 finding at the bug's place, at the case's priority or more
// severe; "agreement": how many of the round's reviewers reported that finding; "fixed": the held-out
// test passes on the branch the loop left.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { priorityRank, type Priority } from '../../src/domain/priority.js';
import type { BugPlace, EvalCase } from './case.js';

/** What the report JSON holds of a finding (src/domain/findings.ts). */
interface ReportedFinding {
  id: string;
  priority: Priority;
  title: string;
  file: string | null;
  line: number | null;
  endLine?: number | null;
  locations?: { file: string | null; line: number | null; endLine: number | null }[];
  members?: { file: string | null; line: number | null }[];
  reportedBy: string[];
  source: { type: string };
}

interface ReportedRound {
  review: { findings: ReportedFinding[]; agents: { role: string; name: string }[] };
}

export interface Judged {
  found: { id: string; priority: Priority; title: string } | null;
  /** Reviewers that reported the bug's finding, of the reviewers of round 1; null when not found. */
  agreement: { by: number; of: number } | null;
  /** Findings of any round at none of the bug's places, counted once each, by priority. */
  otherFindings: Record<Priority, number>;
}

type Span = { file: string | null; from: number; to: number };

function spans(f: ReportedFinding): Span[] {
  const out: Span[] = [];
  const add = (file: string | null, line: number | null | undefined, end?: number | null) => {
    if (line != null) out.push({ file, from: line, to: Math.max(line, end ?? line) });
  };
  add(f.file, f.line, f.endLine);
  for (const l of f.locations ?? []) add(l.file, l.line, l.endLine);
  // A grouped finding's members may name other lines of the same problem.
  for (const m of f.members ?? []) add(m.file, m.line);
  return out;
}

const atPlace = (f: ReportedFinding, places: BugPlace[]): boolean =>
  spans(f).some((s) => places.some((p) => p.file === s.file && s.from <= p.lines[1] && s.to >= p.lines[0]));

export function judgeReport(report: unknown, c: EvalCase): Judged {
  const rounds = ((report as { result?: { rounds?: ReportedRound[] } } | null)?.result?.rounds ??
    []) as ReportedRound[];
  const first = rounds[0]?.review;
  const code = (r: ReportedRound) => r.review.findings.filter((f) => f.source.type === 'agent');
  // Round 1 reviews the PR as written: the case's lines are its lines.
  const hits = first
    ? code(rounds[0]!).filter(
        (f) => atPlace(f, c.bug.places) && priorityRank(f.priority) <= priorityRank(c.bug.priority),
      )
    : [];
  const best = [...hits].sort((a, b) => b.reportedBy.length - a.reportedBy.length)[0] ?? null;
  const reviewers = new Set(first?.agents.filter((a) => a.role === 'reviewer').map((a) => a.name)).size;
  const bugIds = new Set(
    first
      ? code(rounds[0]!)
          .filter((f) => atPlace(f, c.bug.places))
          .map((f) => f.id)
      : [],
  );
  const others = new Map<string, Priority>();
  rounds.forEach((r, i) => {
    for (const f of code(r)) {
      // Later rounds review changed code: a finding there is "other" unless round 1 already tied its id to the bug.
      const bug = i === 0 ? atPlace(f, c.bug.places) : bugIds.has(f.id);
      if (!bug && !others.has(f.id)) others.set(f.id, f.priority);
    }
  });
  const otherFindings: Record<Priority, number> = { P0: 0, P1: 0, P2: 0, P3: 0 };
  for (const p of others.values()) otherFindings[p]++;
  return {
    found: best ? { id: best.id, priority: best.priority, title: best.title } : null,
    agreement: best ? { by: best.reportedBy.length, of: reviewers } : null,
    otherFindings,
  };
}

/** The held-out test's exit: 0 passes. Runs in `dir` with the test written in, as you, without your keys. */
export function runHeldout(c: EvalCase, dir: string): { passed: boolean; output: string } {
  const target = path.join(dir, c.heldout.path);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, readFileSync(path.join(c.dir, c.heldout.file)));
  // The code under test may be the agents' work: it gets a throwaway HOME and no variable of
  // yours but PATH and the locale, so no key reaches it.
  const home = mkdtempSync(path.join(tmpdir(), 'eval-heldout-home-'));
  try {
    const r = spawnSync('sh', ['-c', c.heldout.command], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: process.env.LANG ?? 'C.UTF-8' },
      encoding: 'utf8',
      timeout: 300_000,
      killSignal: 'SIGKILL',
    });
    return { passed: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
