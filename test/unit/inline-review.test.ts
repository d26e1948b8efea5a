// The inline review against the fake GitHub through the real Octokit client: one COMMENT review
// per round with a comment per placeable finding, no second comment on a finding with an open
// thread of ours, "Fixed in" and resolved after a pushed fix, the fixer's reason on a rejected one,
// a human's thread never touched, and a refused write that stops the inline view, not the run.
import { afterEach, expect, it } from 'vitest';
import { renderInlineComment } from '../../src/report/inline-comment.js';
import type { InlineReviewSetup } from '../../src/report/inline-review.js';
import { findingMark, readFindingMark } from '../../src/review/finding-mark.js';
import { fingerprint } from '../../src/review/stuck.js';
import { RunSecrets } from '../../src/security/run-secrets.js';
import type { Finding } from '../../src/domain/findings.js';
import type { FakeGitHub, FakeGitHubOptions } from '../fakes/github/index.js';
import { finding, fixRecord, reviewRecord, shopAgent, threadFinding } from '../factories.js';
import { BOT, inlineWorld, REPO, type InlineWorld } from './inline-world.js';

const FIX_SHA = '9c1185a5c5e9fc54612808977ee8f548b2258d31';
const BUG = finding();
const STYLE = finding({ id: 'DOCS-00c0ffee', priority: 'P3', category: 'docs', line: 1, title: 'add() has no JSDoc' });
const OUTSIDE = finding({ id: 'BUG-0badf00d', file: 'src/other.js', line: 3, title: 'other.js ignores errors' });
const HUMAN = threadFinding();

let fake: FakeGitHub;
let warnings: string[];
let world: InlineWorld;
afterEach(() => fake?.close());

async function setup(github: Partial<FakeGitHubOptions> = {}, over: Partial<InlineReviewSetup> = {}) {
  world = await inlineWorld({ github, setup: over });
  ({ fake, warnings } = world);
  return world.inline;
}

const context = () => world.context();

const round = (findings: Finding[], stuck: Finding[] = []) =>
  reviewRecord({ findings, stuck, agents: [shopAgent({ name: 'reviewer-1' })] });
const ours = () => fake.state.threads(7).filter((t) => t.comments[0]!.author === BOT);

it('posts one COMMENT review with an inline comment per finding on the lines of the diff', async () => {
  const inline = await setup();
  await inline.review(round([BUG, STYLE, OUTSIDE, HUMAN]), await context());
  const reviews = fake.state.reviews(7);
  expect(reviews.map((r) => [r.user.login, r.state])).toEqual([[BOT, 'COMMENTED']]);
  expect(reviews[0]!.body).toContain('review round 1: 2 finding(s) on the lines of this diff');
  // The finding outside the diff and the human's thread get no inline comment.
  expect(ours().map((t) => [t.path, t.line])).toEqual([
    ['src/math.js', 2],
    ['src/math.js', 1],
  ]);
  expect(ours()[0]!.comments[0]!.body).toBe(renderInlineComment(BUG, 1));
});

it('keeps its marks whole when anyone had a piece of one taken for a secret, and finds its thread again', async () => {
  // Redaction learns values from text anyone may write (a thread): one planted a piece of the mark.
  const piece = /<!-- pr-review-loop-finding: (\S+) -->/.exec(findingMark(BUG))![1]!.slice(8, 28);
  const secrets = new RunSecrets();
  secrets.learn(`token: ${piece}`);
  expect(secrets.values).toEqual([piece]);
  const inline = await setup({}, { redact: (t) => secrets.redact(t) });
  await inline.review(round([BUG]), await context());
  expect(readFindingMark(ours()[0]!.comments[0]!.body)?.id).toBe(BUG.id);
  expect(inline.openThreads(round([BUG]), await context()).has(BUG.id)).toBe(true);
});

it('does not comment again on a finding that has an open thread of ours, and links the report to it', async () => {
  const inline = await setup();
  await inline.review(round([BUG]), await context());
  const ctx = await context();
  const links = inline.openThreads(round([BUG, STYLE]), ctx);
  expect(links.get(BUG.id)).toBe(
    `https://github.com/octo-org/demo-repo/pull/7#discussion_r${ours()[0]!.comments[0]!.databaseId}`,
  );
  expect(links.has(STYLE.id)).toBe(false);
  await inline.review(round([BUG]), ctx);
  expect(fake.state.reviews(7)).toHaveLength(1);
});

it('after a pushed fix: "Fixed in", open until checked; a rejected one gets the reason, stays open', async () => {
  const log: string[] = [];
  const inline = await setup({}, { log: (line) => log.push(line) });
  await inline.review(round([BUG, STYLE]), await context());
  const rec = fixRecord({
    outcome: 'pushed',
    commitSha: FIX_SHA,
    fixed: [{ findingId: BUG.id, description: 'fixed' }],
    rejected: [{ findingId: STYLE.id, reason: 'Internal module; its callers are documented.' }],
    fixModels: ['claude:claude-sonnet-4-5'],
  });
  await inline.afterFix(rec, [fingerprint(BUG), fingerprint(STYLE)]);
  await inline.afterFix(rec, [fingerprint(BUG), fingerprint(STYLE)]);
  const [bug, style] = ours();
  expect(bug!.comments).toHaveLength(2);
  expect(bug!.comments[1]!.body).toContain(`Fixed in [\`${FIX_SHA.slice(0, 7)}\`]`);
  expect(bug!.comments[1]!.body).toContain('Not checked yet');
  // No other model has looked at the fix: the thread stays open.
  expect(bug!.isResolved).toBe(false);
  expect(style!.comments.map((c) => c.body)).toEqual([
    expect.anything(),
    expect.stringContaining(
      'Not fixed: the fixer rejected it. Its reason: Internal module; its callers are documented.',
    ),
  ]);
  expect(style!.isResolved).toBe(false);
  expect(log.filter((l) => l.startsWith('resolved'))).toEqual([]);

  // The next review: its other-model reviewer failed, so the fix is still unchecked and the thread open.
  const check = { finding: fingerprint(BUG), fixedIn: FIX_SHA, fixModels: ['claude:claude-sonnet-4-5'], by: [] };
  const failedOther = ['reviewer-2 (codex:gpt-5-codex): timed out'];
  await inline.review(
    { ...round([]), round: 2, fixChecks: [{ ...check, state: 'unchecked', by: failedOther }] },
    await context(),
  );
  expect(ours()[0]!.isResolved).toBe(false);
  expect(ours()[0]!.comments.at(-1)!.body).toContain('Still not checked by another model (reviewer-2');
  // The round after: the other model found nothing left of it. Now the thread is resolved.
  const checked = { ...check, state: 'checked' as const, by: ['reviewer-2 (codex:gpt-5-codex)'] };
  await inline.review({ ...round([]), round: 3, fixChecks: [checked] }, await context());
  expect(ours()[0]!.isResolved).toBe(true);
  expect(ours()[0]!.comments.at(-1)!.body).toContain('Checked by reviewer-2 (codex:gpt-5-codex): nothing left of it.');
  // One line for the thread resolved, naming its place.
  expect(log.filter((l) => l.startsWith('resolved'))).toEqual([
    `resolved the thread of ${BUG.id} (src/math.js:2): checked by another model`,
  ]);
});

it('a fix the gate on another model approved is resolved at once', async () => {
  const inline = await setup();
  await inline.review(round([BUG]), await context());
  const rec = fixRecord({
    outcome: 'pushed',
    commitSha: FIX_SHA,
    fixed: [{ findingId: BUG.id, description: 'fixed' }],
    fixModels: ['claude:claude-sonnet-4-5'],
    gateApproved: 'codex:gpt-5-codex',
  });
  await inline.afterFix(rec, [fingerprint(BUG)]);
  expect(ours()[0]!.isResolved).toBe(true);
  expect(ours()[0]!.comments[1]!.body).toContain('Checked by the gate (`codex:gpt-5-codex`) before the push.');
});

it('a fix that was not pushed neither answers nor resolves a thread', async () => {
  const inline = await setup();
  await inline.review(round([BUG]), await context());
  await inline.afterFix(fixRecord({ outcome: 'verify-failed', fixed: [{ findingId: BUG.id, description: 'x' }] }), [
    fingerprint(BUG),
  ]);
  expect(ours()[0]!.comments).toHaveLength(1);
  expect(ours()[0]!.isResolved).toBe(false);
});

it("never touches a human's thread, even one that forges our marker and the finding's mark", async () => {
  const inline = await setup();
  const forged = fake.state.addThread(7, {
    path: 'src/math.js',
    line: 2,
    comments: [{ body: renderInlineComment(BUG, 1), author: 'mallory' }],
  });
  const ctx = await context();
  // The forged thread does not count as ours: the finding is still commented.
  await inline.review(round([BUG], [STYLE]), ctx);
  expect(ours()).toHaveLength(1);
  await inline.afterFix(fixRecord({ commitSha: FIX_SHA, fixed: [{ findingId: BUG.id, description: 'x' }] }), [
    fingerprint(BUG),
  ]);
  expect(forged.comments).toHaveLength(1);
  expect(forged.isResolved).toBe(false);
});

it('notes in our thread that a finding came back after a fix, once', async () => {
  const inline = await setup();
  await inline.review(round([BUG]), await context());
  await inline.review(round([], [{ ...BUG, stuck: true }]), await context());
  await inline.review(round([], [{ ...BUG, stuck: true }]), await context());
  expect(ours()[0]!.comments.map((c) => c.body)).toEqual([
    expect.anything(),
    expect.stringContaining('This came back after a fix in an earlier round.'),
  ]);
});

it('a refused write warns with the permission it needs and stops the inline view for the run', async () => {
  const inline = await setup({ tokenPermissions: { pull_requests: 'read' } });
  await inline.review(round([BUG]), await context());
  expect(warnings).toEqual([expect.stringContaining('it needs the workflow permission pull-requests: write')]);
  const before = fake.writes().length;
  await inline.review(round([STYLE]), await context());
  await inline.afterFix(fixRecord({ commitSha: FIX_SHA, fixed: [{ findingId: BUG.id, description: 'x' }] }), []);
  expect(fake.writes()).toHaveLength(before);
});

it('comments GitHub cannot place on its diff are in the report only, and the next round still posts', async () => {
  const inline = await setup();
  fake.failNext({ method: 'POST', path: /\/reviews$/, status: 422, body: { message: 'Unprocessable Entity' } });
  await inline.review(round([BUG]), await context());
  expect(warnings).toEqual([
    'GitHub could not place the inline comments of round 1 on its diff; they are in the report only',
  ]);
  await inline.review(round([BUG]), await context());
  expect(fake.state.reviews(7)).toHaveLength(1);
});

const DRY_RUN = {
  serverUrl: 'https://github.com',
  ...REPO,
  prNumber: 7,
  runUrl: null,
  maxRounds: 3,
  mode: 'fix' as const,
  dryRun: true,
};

it.each([
  ['disabled', { enabled: false }],
  ['on a dry run', { reportCtx: DRY_RUN }],
])('posts nothing when %s', async (_name, over) => {
  const inline = await setup({}, over);
  await inline.review(round([BUG]), await context());
  expect(fake.writes()).toEqual([]);
});
