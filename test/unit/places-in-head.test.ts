// A reviewer's places checked against the files at the PR head (src/review/places-in-head.ts):
// a place past a file's end is left out, or kept for the whole file when it is the finding's only
// one; a range past the end loses its range and replacement; a file the head lacks keeps its
// places. Then a round: a reviewer that read two files at once gave one file's lines to the
// other, and that place must not reach the grouped finding the fixer and the review get.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RawFinding } from '../../src/agents/envelope.js';
import { createRegistry } from '../../src/agents/registry.js';
import { NO_USAGE, type AgentAdapter } from '../../src/agents/types.js';
import { linesAtCommit } from '../../src/git/head-lines.js';
import { createGit } from '../../src/git/runner.js';
import { normalizeFinding } from '../../src/review/findings.js';
import { placeFiles, placesInHead } from '../../src/review/places-in-head.js';
import { runReviewRound } from '../../src/review/round.js';
import type { RoleEnv } from '../../src/roles/call.js';
import { loadPrompts } from '../../src/roles/prompts.js';
import { prContext, PROMPTS_URL } from '../factories.js';

const LANGUAGE = 'lib/language.js';
const DETECT = 'lib/detect.js';
/** lib/language.js has 181 lines at the head, lib/detect.js 300; lib/old.js was deleted. */
const HEAD = new Map<string, number | null>([
  [LANGUAGE, 181],
  [DETECT, 300],
  ['lib/old.js', null],
]);

const raw = (over: Partial<RawFinding> = {}): RawFinding => ({
  priority: 'P2',
  category: 'correctness',
  title: 'Language fallback ignores the region subtag',
  description: '`pick("pt-BR")` returns `en` although `pt` is supported.',
  ...over,
});

const places = (f: RawFinding) => {
  const n = normalizeFinding(f, 'reviewer-2');
  return (n.locations ?? [n]).map((p) => [p.file, p.line, p.endLine ?? null, p.replacement ?? null]);
};

describe('placesInHead', () => {
  it('leaves a finding whose places are inside their files as it is, the last line included', () => {
    const f = raw({
      file: LANGUAGE,
      line: 180,
      endLine: 181,
      replacement: 'x',
      locations: [{ file: DETECT, line: 300 }],
    });
    expect(placesInHead(f, HEAD)).toEqual({ finding: f, changes: [] });
    expect(placesInHead(raw({ file: LANGUAGE }), HEAD).changes).toEqual([]);
    expect(placesInHead(raw(), HEAD).changes).toEqual([]);
  });

  it('leaves out a location past its file’s end when the finding has another place', () => {
    const f = raw({
      file: LANGUAGE,
      line: 120,
      locations: [
        { file: LANGUAGE, line: 120 },
        { file: LANGUAGE, line: 252, endLine: 253, replacement: 'return region ?? base;' },
      ],
    });
    const out = placesInHead(f, HEAD);
    expect(out.changes).toEqual(["place lib/language.js:252-253 is past the file's end (181 lines); left out"]);
    expect(places(out.finding)).toEqual([[LANGUAGE, 120, null, null]]);
    expect(places(f)).toHaveLength(2);
  });

  it('leaves out a top-level place past the end: the first location becomes the first place', () => {
    const f = raw({ file: './lib/language.js', line: 182, replacement: 'y', locations: [{ file: DETECT, line: 40 }] });
    const out = placesInHead(f, HEAD);
    expect(out.changes).toEqual(["place lib/language.js:182 is past the file's end (181 lines); left out"]);
    expect(places(out.finding)).toEqual([[DETECT, 40, null, null]]);
    expect(normalizeFinding(out.finding, 'reviewer-2').file).toBe(DETECT);
  });

  it('keeps a finding whose only place is past the end for the whole file', () => {
    const f = raw({ file: LANGUAGE, line: 252, endLine: 253, replacement: 'z' });
    const out = placesInHead(f, HEAD);
    expect(out.changes).toEqual([
      "place lib/language.js:252-253 is past the file's end (181 lines); kept for the whole file",
    ]);
    expect(places(out.finding)).toEqual([[LANGUAGE, null, null, null]]);
    // Every place past the end, the same one twice among them: the first kept for its file, said once.
    const all = raw({
      file: LANGUAGE,
      line: 252,
      locations: [
        { file: LANGUAGE, line: 252, replacement: 'z' },
        { file: DETECT, line: 301 },
      ],
    });
    const both = placesInHead(all, HEAD);
    expect(places(both.finding)).toEqual([[LANGUAGE, null, null, null]]);
    expect(both.changes).toEqual([
      "place lib/language.js:252 is past the file's end (181 lines); kept for the whole file",
      "place lib/detect.js:301 is past the file's end (300 lines); left out",
    ]);
    // Without a top-level file, the first location is the one kept.
    const listed = placesInHead(raw({ locations: [{ file: DETECT, line: 400, replacement: 'w' }] }), HEAD);
    expect(places(listed.finding)).toEqual([[DETECT, null, null, null]]);
  });

  it('keeps the line of a range that ends past the file, without the range or the replacement', () => {
    const f = raw({
      file: LANGUAGE,
      line: 179,
      endLine: 190,
      replacement: 'a\nb',
      locations: [{ file: DETECT, line: 10, endLine: 12, replacement: 'c' }],
    });
    const out = placesInHead(f, HEAD);
    expect(out.changes).toEqual([
      "place lib/language.js:179-190 ends past the file's end (181 lines); its range and replacement left out",
    ]);
    expect(places(out.finding)).toEqual([
      [LANGUAGE, 179, null, null],
      [DETECT, 10, 12, 'c'],
    ]);
  });

  it('leaves the places in a file the head does not hold, or was not asked about, as they are', () => {
    const f = raw({ file: 'lib/old.js', line: 900, replacement: 'q', locations: [{ file: 'lib/new.js', line: 5000 }] });
    expect(placesInHead(f, HEAD)).toEqual({ finding: f, changes: [] });
  });

  it('names each file of the findings once, as the action keeps paths', () => {
    const fs = [raw({ file: './lib/language.js', locations: [{ file: ' lib/detect.js ' }, { file: null }] }), raw()];
    expect(placeFiles(fs)).toEqual([LANGUAGE, DETECT]);
  });
});

describe('a review round with the head’s line counts', () => {
  let scratch: string;
  beforeEach(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'places-in-head-'));
  });
  afterEach(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  /** A real repository at the PR head: lib/language.js of 181 lines, lib/detect.js of 300. */
  async function headRepo() {
    const repo = path.join(scratch, 'repo');
    await mkdir(path.join(repo, 'lib'), { recursive: true });
    const body = (n: number) => Array.from({ length: n }, (_v, i) => `// line ${i + 1}\n`).join('');
    await writeFile(path.join(repo, LANGUAGE), body(181));
    await writeFile(path.join(repo, DETECT), body(300));
    const git = createGit(repo);
    await git(['init', '-q']);
    await git(['add', '-A']);
    await git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'head']);
    return { git, sha: (await git(['rev-parse', 'HEAD'])).stdout.trim() };
  }

  /**
   * reviewer-1 places the bug at lib/language.js:120; reviewer-2 at the same line, and again at
   * 252-253 with a replacement: lib/detect.js's numbers, read with `cat -n` of both files at once.
   */
  async function round(headLines?: (files: string[]) => Promise<Map<string, number | null>>) {
    const answers: Record<string, RawFinding> = {
      m1: raw({ file: LANGUAGE, line: 120 }),
      m2: raw({
        file: LANGUAGE,
        line: 120,
        locations: [
          { file: LANGUAGE, line: 120 },
          { file: LANGUAGE, line: 252, endLine: 253, replacement: 'return region ?? base;' },
        ],
      }),
    };
    const claude: AgentAdapter = {
      kind: 'claude',
      async run(inv) {
        const answer = { conclusion: 'request_changes', findings: [answers[inv.model]!], fullReport: 'r' };
        const text = `BEGIN_JSON\n${JSON.stringify(answer)}\nEND_JSON`;
        return { text, model: inv.model, sessionId: null, usage: NO_USAGE, durationMs: 1 };
      },
    };
    const logs: string[] = [];
    const env: RoleEnv = {
      registry: createRegistry({ adapters: { claude } }),
      prompts: await loadPrompts(PROMPTS_URL),
      workDir: scratch,
      scratchDir: scratch,
      timeoutMs: 10_000,
      log: (l) => logs.push(l),
    };
    const files = [{ filename: LANGUAGE, status: 'modified' as const, additions: 1, deletions: 1 }];
    const reviewers = [
      { agent: 'claude' as const, model: 'm1' },
      { agent: 'claude' as const, model: 'm2' },
    ];
    const plan = { round: 1, ctx: prContext({ files }), reviewers, analyzer: reviewers[0]!, fixedBefore: [] };
    const outcome = await runReviewRound(env, { ...plan, ...(headLines ? { headLines } : {}) });
    return { outcome, logs };
  }

  const placesOf = (o: Awaited<ReturnType<typeof round>>['outcome']) =>
    o.record.findings.map((f) => (f.locations ?? [f]).map((p) => `${p.file}:${p.line}`));

  it('leaves a place past its file’s end out of the grouped finding', async () => {
    const { git, sha } = await headRepo();
    const asked: string[][] = [];
    const { outcome, logs } = await round((files) => {
      asked.push(files);
      return linesAtCommit(git, sha, files);
    });
    expect(outcome.failure).toBeNull();
    expect(outcome.record.findings).toHaveLength(1);
    expect(outcome.record.findings[0]!.reportedBy).toEqual(['reviewer-1', 'reviewer-2']);
    expect(placesOf(outcome)).toEqual([[`${LANGUAGE}:120`]]);
    expect(asked).toEqual([[LANGUAGE]]);
    expect(outcome.record.findings[0]!.replacement ?? null).toBeNull();
    expect(logs).toContain(
      `review: reviewer-2's finding "Language fallback ignores the region subtag": ` +
        `place lib/language.js:252-253 is past the file's end (181 lines); left out`,
    );
  });

  it('keeps the places as given without the line counts', async () => {
    const { outcome } = await round();
    expect(placesOf(outcome)).toEqual([[`${LANGUAGE}:120`, `${LANGUAGE}:252`]]);
  });
});
