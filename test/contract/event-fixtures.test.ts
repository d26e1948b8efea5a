// The committed event payloads (derived from @octokit/webhooks-examples by
// scripts/refresh-fixtures.mjs) keep the fields GitHub sends and the action reads.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Payload = Record<string, any>;
const load = (name: string): Payload =>
  JSON.parse(readFileSync(new URL(`../fixtures/events/${name}.json`, import.meta.url), 'utf8')) as Payload;

const SHA = /^[0-9a-f]{40}$/;
const account = {
  login: expect.any(String),
  id: expect.any(Number),
  type: expect.stringMatching(/^(User|Organization|Bot)$/),
};
const repository = { name: 'demo-repo', full_name: 'octo-org/demo-repo', owner: { ...account, login: 'octo-org' } };

function expectPullRequestEvent(p: Payload, action: string, headRepo: string): void {
  expect(p).toMatchObject({ action, number: 7, repository, sender: account });
  const pr = p.pull_request;
  expect(pr).toMatchObject({
    number: 7,
    state: 'open',
    user: account,
    html_url: 'https://github.com/octo-org/demo-repo/pull/7',
  });
  expect(pr.head).toMatchObject({
    ref: 'feature/planted-bug',
    sha: expect.stringMatching(SHA),
    repo: { full_name: headRepo },
  });
  expect(pr.base).toMatchObject({
    ref: 'main',
    sha: expect.stringMatching(SHA),
    repo: { full_name: 'octo-org/demo-repo' },
  });
}

describe('event fixtures', () => {
  it('names their source package and version', () => {
    const source = load('source');
    expect(source).toMatchObject({
      package: '@octokit/webhooks-examples',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    for (const file of source.files as string[]) expect(() => load(file.replace(/\.json$/, ''))).not.toThrow();
  });

  it('pull_request.opened: same-repository PR', () => {
    const p = load('pull_request.opened');
    expectPullRequestEvent(p, 'opened', 'octo-org/demo-repo');
    expect(p.pull_request.head.repo.fork).toBe(false);
  });

  it('pull_request.synchronize: before/after, after is the head sha', () => {
    const p = load('pull_request.synchronize');
    expectPullRequestEvent(p, 'synchronize', 'octo-org/demo-repo');
    expect(p.before).toMatch(SHA);
    expect(p.after).toBe(p.pull_request.head.sha);
  });

  it('pull_request.opened.fork: the head repository is a fork', () => {
    const p = load('pull_request.opened.fork');
    expectPullRequestEvent(p, 'opened', 'Codertocat/demo-repo');
    expect(p.pull_request.head.repo).toMatchObject({ fork: true, owner: { login: 'Codertocat' } });
    expect(p.pull_request.author_association).toBe('CONTRIBUTOR');
  });

  it('issue_comment.created: a /review-loop comment on a PR', () => {
    const p = load('issue_comment.created');
    expect(p).toMatchObject({ action: 'created', repository, sender: account });
    expect(p.issue).toMatchObject({
      number: 7,
      pull_request: { url: expect.stringContaining('/pulls/7'), html_url: expect.any(String) },
    });
    expect(p.comment).toMatchObject({ id: expect.any(Number), user: account, author_association: expect.any(String) });
    expect(p.comment.body.startsWith('/review-loop')).toBe(true);
  });

  it('pull_request_review_comment.created: a reply in a review thread', () => {
    // GitHub's webhook schema (github/rest-api-description, webhook-pull-request-review-comment-created):
    // comment.in_reply_to_id is "The comment ID to reply to", absent on a thread's first comment;
    // comment.user.type says Bot for an App. The examples hold no reply: the script adds the field.
    const p = load('pull_request_review_comment.created');
    expect(p).toMatchObject({ action: 'created', repository, sender: account });
    expect(p.comment).toMatchObject({
      id: expect.any(Number),
      in_reply_to_id: expect.any(Number),
      user: account,
      body: expect.any(String),
      path: expect.any(String),
      author_association: expect.any(String),
    });
    expect(p.comment.in_reply_to_id).not.toBe(p.comment.id);
    expect(p.pull_request).toMatchObject({ number: 7, head: { sha: expect.stringMatching(SHA) } });
  });

  it('workflow_dispatch: ref, inputs.pr, workflow', () => {
    const p = load('workflow_dispatch');
    expect(p).toMatchObject({
      ref: 'refs/heads/main',
      inputs: { pr: '7' },
      repository,
      sender: account,
      workflow: expect.stringMatching(/\.ya?ml$/),
    });
    expect(p).not.toHaveProperty('action');
  });
});
