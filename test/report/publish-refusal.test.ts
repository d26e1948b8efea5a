// The publisher with a token that may not write: the report always reaches the job summary,
// GitHub's refusal is the last write attempted, and why is logged once.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/github/client.js';
import type { ActionIO } from '../../src/domain/io.js';
import { createPublisher } from '../../src/report/publish.js';
import type { HiddenState } from '../../src/report/state.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github/index.js';

const STATE: HiddenState = {
  v: 1,
  kind: 'review',
  headSha: 'a'.repeat(40),
  round: 1,
  runId: '1',
  findingIds: [],
  fixedIds: [],
  stuckIds: [],
  status: null,
};

let fake: FakeGitHub | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

function recordingIO() {
  const log = { info: [] as string[], warning: [] as string[], summary: [] as string[] };
  const io: ActionIO = {
    info: (m) => log.info.push(m),
    warning: (m) => log.warning.push(m),
    notice: () => undefined,
    error: () => undefined,
    setOutput: () => undefined,
    setSecret: () => undefined,
    setFailed: () => undefined,
    appendSummary: async (md) => {
      log.summary.push(md);
    },
    prependSummary: async (md) => {
      log.summary.unshift(md);
    },
  };
  return { io, log };
}

async function publisherWith(readOnly: boolean) {
  fake = await startFakeGitHub({
    owner: 'octo-org',
    repo: 'demo-repo',
    token: { kind: 'actions', ...(readOnly ? { readOnly: true as const } : {}) },
    pulls: [{ number: 7, title: 'T', user: 'alice', headRef: 'x' }],
  });
  const octokit = createClient({ token: 'ghs_test', baseUrl: fake.url, log: () => undefined, retryAfterBaseValue: 1 });
  const { io, log } = recordingIO();
  const repo = { owner: 'octo-org', repo: 'demo-repo' };
  return { publisher: createPublisher({ octokit, repo, prNumber: 7, dryRun: false, secrets: [], io }), log };
}

describe('publisher and a token that may not write', () => {
  it('on a refusal: the report stays in the summary, no comment is tried again, why is logged once', async () => {
    const { publisher, log } = await publisherWith(true);
    await publisher.report('## first report', STATE);
    await publisher.report('## second report', { ...STATE, kind: 'fix' });
    const writes = fake!.writes().map((w) => `${w.method} ${w.path} ${w.status}`);
    expect(writes).toEqual(['POST /repos/octo-org/demo-repo/issues/7/comments 403']);
    expect(publisher.commentsPosted).toBe(0);
    expect(publisher.writesRefused).toMatch(/Resource not accessible by integration/);
    expect(log.summary.join('\n')).toMatch(/## first report[\s\S]*## second report/);
    expect(log.warning).toHaveLength(1);
    expect(log.warning[0]).toContain('issues=write; pull_requests=write');
  });

  it('known up front: not even one write request', async () => {
    const { publisher, log } = await publisherWith(true);
    publisher.refuseWrites('a fork PR on pull_request');
    await publisher.report('## report', STATE);
    expect(fake!.writes()).toEqual([]);
    expect(log.summary.join('\n')).toContain('## report');
    expect(log.warning).toEqual([expect.stringContaining('a fork PR on pull_request')]);
  });

  it('a token that may write posts as before', async () => {
    const { publisher, log } = await publisherWith(false);
    await publisher.report('## report', STATE);
    expect(publisher.commentsPosted).toBe(1);
    expect(publisher.writesRefused).toBeNull();
    expect(log.warning).toEqual([]);
  });

  it('other failures still fail', async () => {
    const { publisher } = await publisherWith(false);
    fake!.failNext({ method: 'POST', path: /\/comments$/, status: 422, body: { message: 'Validation Failed' } });
    await expect(publisher.report('## report', STATE)).rejects.toThrow(/Validation Failed/);
    expect(publisher.writesRefused).toBeNull();
  });
});
