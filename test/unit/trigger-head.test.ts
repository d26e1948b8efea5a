// A /review-loop comment covers the head its author saw (docs/security.md). The real Octokit
// against the fake GitHub, whose activity log and commits come from a real git origin.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/github/client.js';
import type { PrTarget } from '../../src/domain/pull-request.js';
import { checkCommandCoversHead, RefusedRun } from '../../src/preflight/checks.js';
import { createOrigin, type Origin } from '../contract/git-origin.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github/index.js';
import { meta } from '../factories.js';

const REPO = { owner: 'octo-org', repo: 'demo-repo' };
const HEAD_REF = 'refs/heads/feature/planted-bug';
let origin: Origin;
let fake: FakeGitHub;
let logged: string[];

beforeAll(async () => {
  origin = await createOrigin({ 'a.js': 'a\n' }, { 'a.js': 'b\n' });
});
afterAll(async () => {
  await origin.cleanup();
});
beforeEach(async () => {
  await fake?.close();
  const pulls = [{ number: 7, title: 't', user: 'dev', headRef: 'feature/planted-bug' }];
  fake = await startFakeGitHub({ ...REPO, originDir: origin.originDir, pulls });
  logged = [];
});

const iso = (offsetMs: number): string => new Date(Date.now() + offsetMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
const HOUR = 3_600_000;

function command(over: { requestedSha?: string | null; commentCreatedAt?: string | null } = {}): PrTarget {
  return {
    kind: 'issue_comment',
    eventName: 'issue_comment',
    number: 7,
    actor: 'alice',
    actorType: 'User',
    commentBody: '/review-loop',
    commentId: 1,
    requestedSha: null,
    commentCreatedAt: iso(0),
    ...over,
  };
}

async function check(target: PrTarget): Promise<RefusedRun | null> {
  const octokit = createClient({ token: 'ghs_test', baseUrl: fake.url, log: () => undefined, retryAfterBaseValue: 1 });
  const prMeta = meta({ headSha: origin.headSha, baseSha: origin.baseSha });
  try {
    await checkCommandCoversHead(octokit, REPO, target, prMeta, (l) => logged.push(l));
    return null;
  } catch (e) {
    if (e instanceof RefusedRun) return e;
    throw e;
  }
}

describe('/review-loop without a sha: the head must have arrived before the comment', () => {
  it("runs when GitHub's push record is older than the comment", async () => {
    fake.state.recordPush({ ref: HEAD_REF, after: origin.headSha, timestamp: iso(-HOUR) });
    expect(await check(command())).toBeNull();
    expect(logged.join('\n')).toMatch(/arrived at .* \(GitHub's push record\), before the comment/);
  });

  it('is refused when the push is later than the comment, naming the head and both times', async () => {
    const pushedAt = iso(-1000);
    fake.state.recordPush({ ref: HEAD_REF, after: origin.headSha, timestamp: pushedAt });
    const refused = await check(command({ commentCreatedAt: iso(-HOUR) }));
    expect(refused?.message).toContain(`the PR head ${origin.headSha} arrived at ${pushedAt} (GitHub's push record)`);
    expect(refused?.message).toContain('/review-loop <sha>');
  });

  it("is refused when the log's newest entry for the branch is another commit (not logged yet)", async () => {
    // GitHub logs pushes a moment after it takes them; the fake logs what it sees, so the
    // not-yet-logged answer is scripted.
    const entry = { id: 1, node_id: 'RA_1', before: '0'.repeat(40), after: origin.baseSha, ref: HEAD_REF };
    const body = [{ ...entry, timestamp: iso(-HOUR), activity_type: 'push', actor: null }];
    fake.failNext({ method: 'GET', path: /\/activity$/, status: 200, body });
    const refused = await check(command());
    const said = `does not show the PR head ${origin.headSha} yet \\(newest entry: ${origin.baseSha}`;
    expect(refused?.message).toMatch(new RegExp(said));
  });

  it('without a readable log, falls back to the committer date, and says so', async () => {
    fake.failNext({ method: 'GET', path: /\/activity$/, status: 404, times: 2 });
    const refused = await check(command({ commentCreatedAt: iso(-HOUR) }));
    expect(refused?.message).toMatch(/arrived at .* \(its committer date\), not before the \/review-loop comment/);
    expect(await check(command({ commentCreatedAt: iso(HOUR) }))).toBeNull();
    const warned = /activity log of octo-org\/demo-repo is not readable \(HTTP 404\); judging the head by its/;
    expect(logged.join('\n')).toMatch(warned);
  });

  it('is refused when the event has no comment time', async () => {
    const refused = await check(command({ commentCreatedAt: null }));
    expect(refused?.message).toMatch(/no valid comment\.created_at/);
  });
});

describe('/review-loop <sha>', () => {
  it('runs for the head, full or short, without asking when it arrived', async () => {
    expect(await check(command({ requestedSha: origin.headSha, commentCreatedAt: null }))).toBeNull();
    expect(await check(command({ requestedSha: origin.headSha.slice(0, 7), commentCreatedAt: null }))).toBeNull();
    const asked = fake.requests.map((r) => r.path);
    expect(asked).toEqual([`/repos/octo-org/demo-repo/commits/${origin.headSha.slice(0, 7)}`]);
  });

  it('is refused for another commit, naming both', async () => {
    const refused = await check(command({ requestedSha: origin.baseSha }));
    const said = `asks to review commit ${origin.baseSha}, but the PR head is now ${origin.headSha}`;
    expect(refused?.message).toContain(said);
  });

  it('is refused for a short sha GitHub cannot resolve to one commit', async () => {
    const short = origin.headSha.slice(0, 7);
    const body = { message: `No commit found for SHA: ${short}` };
    fake.failNext({ method: 'GET', path: /\/commits\//, status: 422, body });
    const refused = await check(command({ requestedSha: short }));
    expect(refused?.message).toContain(`GitHub does not resolve ${short} to exactly one commit`);
  });

  it('asks nothing for other events', async () => {
    const target: PrTarget = { kind: 'workflow_dispatch', eventName: 'workflow_dispatch', number: 7, actor: 'a' };
    expect(await check(target)).toBeNull();
    expect(fake.requests).toEqual([]);
  });
});
