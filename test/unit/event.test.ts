import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BadCommandError,
  NothingToDoError,
  UnsupportedEventError,
  parsePrTarget,
  requestedSha,
} from '../../src/github/event.js';

// Event payloads derived from @octokit/webhooks-examples (test/fixtures/events/source.json).
type Payload = Record<string, unknown>;
const fixture = (name: string): Payload =>
  JSON.parse(readFileSync(new URL(`../fixtures/events/${name}.json`, import.meta.url), 'utf8')) as Payload;

function commentEvent(body: string, action = 'created', onPr = true): Payload {
  const p = fixture('issue_comment.created');
  const issue = { ...(p.issue as Payload) };
  if (!onPr) delete issue.pull_request;
  return { ...p, action, issue, comment: { ...(p.comment as Payload), body } };
}

describe('parsePrTarget: pull_request events', () => {
  it('reads number, head sha, head ref and actor from pull_request opened', () => {
    const t = parsePrTarget({ eventName: 'pull_request', payload: fixture('pull_request.opened') });
    expect(t).toEqual({
      kind: 'pull_request',
      eventName: 'pull_request',
      action: 'opened',
      number: 7,
      headSha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821',
      headRef: 'feature/planted-bug',
      actor: 'Codertocat',
    });
  });

  it('keeps the action of pull_request synchronize', () => {
    const t = parsePrTarget({ eventName: 'pull_request', payload: fixture('pull_request.synchronize') });
    expect(t.kind).toBe('pull_request');
    if (t.kind !== 'pull_request') return;
    expect(t.action).toBe('synchronize');
    expect(t.number).toBe(7);
  });

  it('marks pull_request_target with its own event name', () => {
    const t = parsePrTarget({ eventName: 'pull_request_target', payload: fixture('pull_request.opened.fork') });
    expect(t.kind).toBe('pull_request');
    expect(t.eventName).toBe('pull_request_target');
    expect(t.number).toBe(7);
  });

  it('refuses a pull_request payload without a number', () => {
    expect(() => parsePrTarget({ eventName: 'pull_request', payload: { action: 'opened' } })).toThrow(
      UnsupportedEventError,
    );
  });
});

describe('parsePrTarget: workflow_dispatch', () => {
  it('takes the PR number from the "pr" input', () => {
    const t = parsePrTarget({ eventName: 'workflow_dispatch', payload: fixture('workflow_dispatch'), prInput: 12 });
    expect(t).toEqual({ kind: 'workflow_dispatch', eventName: 'workflow_dispatch', number: 12, actor: 'Codertocat' });
  });

  it('without the input fails with an error naming the input "pr"', () => {
    const run = () => parsePrTarget({ eventName: 'workflow_dispatch', payload: fixture('workflow_dispatch') });
    expect(run).toThrow(UnsupportedEventError);
    expect(run).toThrow(/input "pr"/);
  });
});

describe('parsePrTarget: issue_comment', () => {
  it('a /review-loop comment on a PR targets that PR and names the commenter', () => {
    const t = parsePrTarget({ eventName: 'issue_comment', payload: commentEvent('/review-loop') });
    expect(t).toEqual({
      kind: 'issue_comment',
      eventName: 'issue_comment',
      number: 7,
      actor: 'Codertocat',
      actorType: 'User',
      commentBody: '/review-loop',
      commentId: 492700400,
      requestedSha: null,
      commentCreatedAt: '2019-05-15T15:20:21Z',
    });
  });

  it('accepts leading whitespace before the command', () => {
    const t = parsePrTarget({ eventName: 'issue_comment', payload: commentEvent('  \n\t/review-loop please') });
    expect(t.kind).toBe('issue_comment');
    expect(t.number).toBe(7);
  });

  it('a comment on a plain issue asks for nothing', () => {
    expect(() =>
      parsePrTarget({ eventName: 'issue_comment', payload: commentEvent('/review-loop', 'created', false) }),
    ).toThrow(NothingToDoError);
  });

  it('a comment that does not start with the command asks for nothing', () => {
    expect(() =>
      parsePrTarget({ eventName: 'issue_comment', payload: commentEvent('LGTM, but /review-loop later') }),
    ).toThrow(NothingToDoError);
  });

  it('an edited comment does not start a run', () => {
    expect(() =>
      parsePrTarget({ eventName: 'issue_comment', payload: commentEvent('/review-loop', 'edited') }),
    ).toThrow(NothingToDoError);
  });

  it('reports a bot commenter by its account type', () => {
    const p = commentEvent('/review-loop');
    const c = p.comment as Payload;
    const t = parsePrTarget({
      eventName: 'issue_comment',
      payload: { ...p, comment: { ...c, user: { login: 'renovate[bot]', type: 'Bot' } } },
    });
    expect(t.kind === 'issue_comment' && [t.actor, t.actorType]).toEqual(['renovate[bot]', 'Bot']);
  });
});

describe('/review-loop <sha>: the head the commenter saw', () => {
  const sha = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';

  it('reads a full or short sha after the command, lower-cased, and ignores the rest of the comment', () => {
    expect(requestedSha(`/review-loop ${sha}`)).toBe(sha);
    expect(requestedSha('/review-loop EC26C3E please, I checked it\nthanks')).toBe('ec26c3e');
    expect(requestedSha(`  \n/review-loop\t${sha.slice(0, 12)}`)).toBe(sha.slice(0, 12));
    const t = parsePrTarget({ eventName: 'issue_comment', payload: commentEvent(`/review-loop ${sha.slice(0, 7)}`) });
    expect(t.kind === 'issue_comment' && t.requestedSha).toBe(sha.slice(0, 7));
  });

  it('has no sha when the command stands alone or is followed by words', () => {
    expect(requestedSha('/review-loop')).toBeNull();
    expect(requestedSha('/review-loop please')).toBeNull();
    expect(requestedSha('/review-loop\nec26c3e on the next line is not the argument')).toBeNull();
  });

  it('refuses a run of hex digits that is too short or too long to be a sha, naming it and showing an example', () => {
    for (const bad of ['ec26c3', `${sha}0`]) {
      const run = () => parsePrTarget({ eventName: 'issue_comment', payload: commentEvent(`/review-loop ${bad}`) });
      expect(run).toThrow(BadCommandError);
      const example = 'e\\.g\\. "/review-loop [0-9a-f]{7}"';
      const message = `"/review-loop ${bad}" names a commit with ${bad.length} hex digits.*${example}`;
      expect(run).toThrow(new RegExp(message));
    }
  });
});

describe('parsePrTarget: pull_request_review_comment (a reply in a review thread)', () => {
  const reply = (comment: Payload = {}, action = 'created'): Payload => {
    const p = fixture('pull_request_review_comment.created');
    return { ...p, action, comment: { ...(p.comment as Payload), ...comment } };
  };
  const parse = (payload: Payload) => parsePrTarget({ eventName: 'pull_request_review_comment', payload });

  it("a person's new reply targets the PR and names the reply, the comment it answers and its author", () => {
    const p = reply();
    const c = p.comment as Payload & { id: number; in_reply_to_id: number; body: string };
    expect(parse(p)).toEqual({
      kind: 'thread_reply',
      eventName: 'pull_request_review_comment',
      number: 7,
      headSha: ((p.pull_request as Payload).head as Payload).sha,
      actor: 'Codertocat',
      actorType: 'User',
      commentId: c.id,
      inReplyToId: c.in_reply_to_id,
      commentBody: c.body,
    });
  });

  it('an edited or deleted reply, or a comment that starts a thread, asks for nothing', () => {
    expect(() => parse(reply({}, 'edited'))).toThrow(NothingToDoError);
    expect(() => parse(reply({}, 'edited'))).toThrow(/"edited" is ignored: only a new reply is answered/);
    expect(() => parse(reply({}, 'deleted'))).toThrow(NothingToDoError);
    expect(() => parse(reply({ in_reply_to_id: undefined }))).toThrow(/starts a thread/);
  });

  it("a bot's reply, or one carrying the action's mark, asks for nothing: the action never answers itself", () => {
    const bot = { login: 'github-actions[bot]', type: 'Bot' };
    expect(() => parse(reply({ user: bot }))).toThrow(/by a bot \(github-actions\[bot\]\)/);
    expect(() => parse(reply({ user: { login: 'my-app[bot]', type: 'User' } }))).toThrow(NothingToDoError);
    const marked = 'Agreed.\n\n<!-- pr-review-loop-marker -->\n<!-- pr-review-loop-answer: 5 -->';
    expect(() => parse(reply({ body: marked }))).toThrow(/the action's mark/);
  });

  it('a payload without the PR number is refused', () => {
    expect(() => parse({ ...reply(), pull_request: {} })).toThrow(UnsupportedEventError);
  });
});

describe('parsePrTarget: other events', () => {
  it('an unsupported event fails with an error naming the event and the supported ones', () => {
    const run = () => parsePrTarget({ eventName: 'push', payload: { ref: 'refs/heads/main' } });
    expect(run).toThrow(UnsupportedEventError);
    expect(run).toThrow(
      /"push" is not supported.*pull_request.*workflow_dispatch.*issue_comment.*pull_request_review_comment/s,
    );
  });
});

describe('parsePrTarget: workflow_run (CI as a reviewer)', () => {
  const run = (over: Payload = {}, action = 'completed'): Payload => ({
    action,
    workflow_run: {
      id: 1,
      path: '.github/workflows/ci.yml',
      head_sha: 'a'.repeat(40),
      conclusion: 'failure',
      pull_requests: [{ number: 7 }],
      triggering_actor: { login: 'alice' },
      ...over,
    },
    sender: { login: 'alice' },
  });

  it('a failed run of a PR asks for a CI fix round on its head', () => {
    expect(parsePrTarget({ eventName: 'workflow_run', payload: run() })).toEqual({
      kind: 'workflow_run',
      eventName: 'workflow_run',
      number: 7,
      headSha: 'a'.repeat(40),
      workflowPath: '.github/workflows/ci.yml',
      actor: 'alice',
    });
  });

  it("asks for nothing when the run is not completed, did not fail, or names no PR (a fork's)", () => {
    expect(() => parsePrTarget({ eventName: 'workflow_run', payload: run({}, 'requested') })).toThrow(NothingToDoError);
    expect(() => parsePrTarget({ eventName: 'workflow_run', payload: run({ conclusion: 'success' }) })).toThrow(
      /not "failure"/,
    );
    expect(() => parsePrTarget({ eventName: 'workflow_run', payload: run({ pull_requests: [] }) })).toThrow(
      /PRs from forks/,
    );
  });
});
