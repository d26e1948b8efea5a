// Who may answer a decision, against the fake GitHub through a real Octokit: write access, neither
// the PR's author nor a pusher of its branch (GitHub's activity log), after the question was asked.
import { getOctokit } from '@actions/github';
import { afterEach, describe, expect, it } from 'vitest';
import { decisionAnswerers } from '../../src/github/answerers.js';
import type { Octokit } from '../../src/github/client.js';
import { judgeAnswers } from '../../src/review/decision-answers.js';
import type { KnownDecision } from '../../src/domain/findings.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github/index.js';
import { HEAD, meta } from '../factories.js';
import { plantedPull } from './inline-world.js';

const REPO = { owner: 'octo-org', repo: 'demo-repo' };
const ASKED = '2026-11-20T10:00:00Z';
const DECISION: KnownDecision = {
  question: 'May a patch release reject dotted keys?',
  options: ['Keep rejecting them', 'Accept them again'],
  by: 'fixer',
  finding: {
    id: 'CORR-1a2b3c4d',
    priority: 'P1',
    category: 'correctness',
    file: 'src/math.js',
    line: 2,
    title: 'Dotted keys are rejected',
    description: 'd',
    suggestion: null,
  },
};

let fake: FakeGitHub;
afterEach(() => fake?.close());

async function world() {
  fake = await startFakeGitHub({
    ...REPO,
    collaborators: { alice: 'write', maya: 'maintain', pat: 'write', rita: 'read', wes: 'write' },
    pulls: [plantedPull()],
  });
  // pat pushed a commit to the PR's branch: a co-author of the change.
  fake.state.recordPush({ ref: 'feature/planted-bug', after: HEAD, actor: 'pat', timestamp: '2026-11-19T09:00:00Z' });
  const octokit = getOctokit('t', { baseUrl: fake.url }) as unknown as Octokit;
  const pr = meta({ author: 'alice', headRef: 'feature/planted-bug', headRepoFullName: 'octo-org/demo-repo' });
  return { octokit, pr };
}

const comment = (author: string, body: string, createdAt = '2026-11-21T08:00:00Z') => ({ author, body, createdAt });

describe('answering a decision', () => {
  it("refuses the PR's author, a pusher and a reader; takes a maintainer's answer with their words", async () => {
    const { octokit, pr } = await world();
    const may = decisionAnswerers(octokit, REPO, pr, undefined);
    const { accepted, refused } = await judgeAnswers(
      [
        comment('alice', '/review-loop decide CORR-1a2b3c4d 1', '2026-11-21T07:00:00Z'),
        comment('pat', '/review-loop decide CORR-1a2b3c4d 1', '2026-11-21T07:10:00Z'),
        comment('rita', '/review-loop decide CORR-1a2b3c4d 1', '2026-11-21T07:20:00Z'),
        comment('maya', '/review-loop decide CORR-1a2b3c4d 2 we promised 2.x accepts them', '2026-11-21T07:30:00Z'),
      ],
      [DECISION],
      new Map([[DECISION.finding.id, ASKED]]),
      HEAD,
      may,
    );
    expect(refused.map((r) => [r.by, r.why])).toEqual([
      ['alice', "alice is the PR's author"],
      ['pat', "pat pushed to the PR's branch"],
      ['rita', 'rita has read access; answering needs write'],
    ]);
    expect(accepted.get(DECISION.finding.id)).toEqual({
      chosen: 2,
      by: 'maya',
      comment: 'we promised 2.x accepts them',
      headSha: HEAD,
    });
  });

  it('refuses an answer written before the question, or naming no option of it', async () => {
    const { octokit, pr } = await world();
    const may = decisionAnswerers(octokit, REPO, pr, undefined);
    const { accepted, refused } = await judgeAnswers(
      [
        comment('maya', '/review-loop decide CORR-1a2b3c4d 1', '2026-11-19T08:00:00Z'),
        comment('maya', '/review-loop decide CORR-1a2b3c4d 3'),
        comment('maya', '/review-loop decide CORR-00000000 1'),
      ],
      [DECISION],
      new Map([[DECISION.finding.id, ASKED]]),
      HEAD,
      may,
    );
    expect(accepted.size).toBe(0);
    expect(refused.map((r) => r.why)).toEqual([
      `the comment was written before the question was asked (${ASKED})`,
      '"3" is not an option of CORR-1a2b3c4d (1 to 2)',
      'no open decision has the id "CORR-00000000" (example: /review-loop decide CAT-1a2b3c4d 2)',
    ]);
  });

  it('decision-answerers: maintain refuses a writer', async () => {
    const { octokit, pr } = await world();
    const may = decisionAnswerers(octokit, REPO, pr, 'maintain');
    expect(await may('wes')).toEqual({ ok: false, why: 'wes has write access; answering needs maintain' });
    expect(await may('maya')).toEqual({ ok: true });
  });

  it('says what a person without access lacks, and what GitHub did not say', async () => {
    const { octokit, pr } = await world();
    const may = decisionAnswerers(octokit, REPO, pr, undefined);
    expect(await may('zed')).toEqual({ ok: false, why: 'zed has no access to the repository; answering needs write' });
    fake.failNext({ method: 'GET', path: /\/collaborators\/wes\/permission$/, status: 403 });
    expect(await may('wes')).toEqual({ ok: false, why: 'GitHub did not say what permission wes has (HTTP 403)' });
  });
});
