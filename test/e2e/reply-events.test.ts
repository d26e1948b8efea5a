// A reply in one of the action's threads starts a run of its own (pull_request_review_comment,
// created), end to end with the real bundle. On the head last reviewed the run only answers: no
// review. On a new head it is a push run that reviews and answers. A reply the action must not
// answer ends the run before any agent or sandbox: its own (by login or by its mark), one outside
// its threads, one on a token that may not write. The answers per thread per hour are capped.
import { afterEach, expect, it } from 'vitest';
import { MARKER } from '../../src/domain/marker.js';
import { answerMark } from '../../src/review/thread-replies.js';
import { createWorld, OWNER, type ReplyEvent, type World } from './harness.js';
import { CONCEDE_ANSWER, INTENDED_REPLY, REPLY_ANSWERS, REPLY_REVIEW } from './scenarios.js';

const BOT = 'github-actions[bot]';
const FORK = 'mallory/demo-repo';
const INTENDED = INTENDED_REPLY;
const CONCEDE = CONCEDE_ANSWER;
const ANSWERS = REPLY_ANSWERS;
const REVIEW = REPLY_REVIEW;
const INPUTS = { mode: 'review', 'fail-on': 'none' };

let world: World;
afterEach(async () => {
  await world?.close();
});

const ourThreads = () => world.github.state.threads(7).filter((t) => t.comments[0]!.author === BOT);
const threadAt = (line: number) => ourThreads().find((t) => t.line === line)!;
const ourAnswers = (line: number) =>
  threadAt(line)
    .comments.filter((c) => c.author === BOT)
    .slice(1);
const calls = (role: string) => world.agentCalls().filter((c) => c.role === role);
type Thread = ReturnType<typeof threadAt>;

async function reviewOnce() {
  const first = await world.run({ rules: [REVIEW], inputs: INPUTS });
  expect(first.outputs.status, first.stdout).toBe('review-only');
  expect(ourThreads()).toHaveLength(2);
}

/** A person's reply in a thread, and the event GitHub sends for it. */
function reply(thread: Thread, login: string, body: string, type: 'User' | 'Bot' = 'User'): ReplyEvent {
  const posted = world.github.state.addReply(thread, { login, type }, body);
  return { id: posted.databaseId, inReplyTo: thread.comments[0]!.databaseId!, body, login, type };
}

const replyRun = (r: ReplyEvent) =>
  world.run({ eventName: 'pull_request_review_comment', reply: r, rules: [REVIEW, ...ANSWERS], inputs: INPUTS });

it('answers a reply on the last reviewed head without a review', async () => {
  world = await createWorld();
  await reviewOnce();
  const event = reply(threadAt(1), OWNER, INTENDED);
  const r = await replyRun(event);
  expect(r.outputs.status, r.stdout).toBe('skipped');
  expect(r.stdout).toContain('Answer-only: Head');
  expect(calls('answerer')).toHaveLength(1);
  expect(calls('reviewer')).toHaveLength(1); // the first run's: none for the reply
  expect(ourAnswers(1)).toHaveLength(1);
  expect(ourAnswers(1)[0]!.body).toContain(CONCEDE);

  // A reply whose run the concurrency group cancelled waits in the other thread; the next run,
  // whatever started it (here the first reply's event again), answers every reply still waiting.
  world.github.state.addReply(threadAt(2), { login: OWNER, type: 'User' }, 'Why is this a problem?');
  const again = await replyRun(event);
  expect(again.outputs.status, again.stdout).toBe('skipped');
  expect(calls('answerer')).toHaveLength(2);
  expect([ourAnswers(1).length, ourAnswers(2).length]).toEqual([1, 1]);
  // Nothing waits now: the same event ends the run before any agent.
  const third = await replyRun(event);
  expect(third.outputs.status, third.stdout).toBe('skipped');
  expect(calls('answerer')).toHaveLength(2);
});

it("ends at once, no model called, on the action's own reply, by its login or its mark", async () => {
  world = await createWorld();
  await reviewOnce();
  const own = await replyRun(reply(threadAt(1), BOT, 'An answer of ours.', 'Bot'));
  expect(own.outputs.status, own.stdout).toBe('skipped');
  expect(own.stdout).toContain('The reply is by a bot (github-actions[bot])');
  const marked = `Quoted back.\n\n${MARKER}\n${answerMark(1)}`;
  const mark = await replyRun(reply(threadAt(2), OWNER, marked));
  expect(mark.outputs.status, mark.stdout).toBe('skipped');
  expect(mark.stdout).toContain("carries the action's mark");
  expect(calls('answerer')).toHaveLength(0);
  expect(calls('reviewer')).toHaveLength(1);
});

it('ends at once when the token is a person whose reply it is (a personal access token)', async () => {
  world = await createWorld({ github: { token: { kind: 'user', login: 'release-bot-user' } } });
  const r = await world.run({
    eventName: 'pull_request_review_comment',
    reply: { id: 5001, inReplyTo: 5000, body: 'Answered above.', login: 'release-bot-user' },
    rules: [REVIEW, ...ANSWERS],
    inputs: INPUTS,
  });
  expect(r.outputs.status, r.stdout).toBe('skipped');
  expect(r.stdout).toContain("The reply is by release-bot-user, the action's own identity");
  expect(world.agentCalls()).toHaveLength(0);
});

it("ends at once on a reply outside the action's threads", async () => {
  world = await createWorld();
  await reviewOnce();
  const theirs = world.github.state.addThread(7, {
    path: 'src/math.js',
    line: 2,
    comments: [{ body: 'Should this subtract?', author: OWNER }],
  });
  const r = await replyRun(reply(theirs, 'octocat', 'No, it should add.'));
  expect(r.outputs.status, r.stdout).toBe('skipped');
  expect(r.stdout).toContain('is not in a thread the action started');
  expect(world.agentCalls()).toHaveLength(1); // the first run's reviewer
});

it('reviews a new head in full on a reply, and answers the reply too', async () => {
  world = await createWorld();
  await reviewOnce();
  const event = reply(threadAt(2), OWNER, 'Why is this a problem?');
  await world.sandbox.pushFromAnotherClone({ 'CHANGELOG.md': 'A human note.\n' }, { message: 'Add a changelog' });
  const r = await replyRun(event);
  expect(r.outputs.status, r.stdout).toBe('review-only');
  expect(calls('reviewer')).toHaveLength(2);
  expect(calls('answerer')).toHaveLength(1);
  expect(ourAnswers(2)).toHaveLength(1);
  expect(ourAnswers(2)[0]!.body).toContain('add(2, 3) is -1');
});

it('caps the answers in a thread at 3 an hour; older answers do not count', async () => {
  world = await createWorld();
  await reviewOnce();
  const thread = threadAt(1);
  const answerBy = (id: number, at: string) => {
    const c = world.github.state.addReply(
      thread,
      { login: BOT, type: 'Bot' },
      `Earlier.\n\n${MARKER}\n${answerMark(id)}`,
    );
    c.createdAt = at;
  };
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  answerBy(1, hoursAgo(2));
  answerBy(2, hoursAgo(0.5));
  answerBy(3, hoursAgo(0.25));
  // Two answers in the last hour: a third is allowed.
  const first = await replyRun(reply(thread, OWNER, INTENDED));
  expect(first.outputs.status, first.stdout).toBe('skipped');
  expect(calls('answerer')).toHaveLength(1);
  // Three in the last hour: the next reply waits, and the run ends before any agent.
  const held = await replyRun(reply(thread, OWNER, 'Are you sure?'));
  expect(held.outputs.status, held.stdout).toBe('skipped');
  expect(held.stdout).toMatch(
    /replies wait in 1 threads; answering 0 now \(1 had 3 answers in the last hour, a thread's most\)/,
  );
  expect(calls('answerer')).toHaveLength(1);
  // The other thread is not held by this one's limit.
  await replyRun(reply(threadAt(2), OWNER, 'Why?'));
  expect(calls('answerer')).toHaveLength(2);
  expect(ourAnswers(2)).toHaveLength(1);
});

it('caps the answers in a PR at 10 an hour, whichever threads they were in', async () => {
  world = await createWorld();
  await reviewOnce();
  // Two more threads of ours (as a review of earlier findings left them), and 10 answers of the
  // last hour over the four: 3, 3, 3 and 1.
  const more = [3, 4].map((line) =>
    world.github.state.addThread(7, {
      path: 'src/math.js',
      line,
      comments: [{ body: threadAt(1).comments[0]!.body.replace(/add\(\) has no JSDoc/g, `Line ${line}`), author: BOT }],
    }),
  );
  const threads = [threadAt(1), threadAt(2), ...more];
  expect(ourThreads()).toHaveLength(4);
  let id = 1;
  for (const [i, n] of [3, 3, 3, 1].entries()) {
    for (let k = 0; k < n; k++)
      world.github.state.addReply(
        threads[i]!,
        { login: BOT, type: 'Bot' },
        `Earlier.\n\n${MARKER}\n${answerMark(id++)}`,
      );
  }
  // The fourth thread had one answer: its own limit would allow another, the PR's does not.
  const held = await replyRun(reply(threads[3]!, OWNER, 'And this one?'));
  expect(held.outputs.status, held.stdout).toBe('skipped');
  expect(held.stdout).toMatch(/answering 0 now \(the PR had 10 in the last hour, its most\); 1 wait for a later run/);
  expect(calls('answerer')).toHaveLength(0);
});

it('ends at once with a log line when the token may not write (a reply on a fork PR)', async () => {
  world = await createWorld({
    pull: { headRepoFullName: FORK },
    github: { token: { kind: 'actions', readOnly: true } },
  });
  const r = await world.run({
    eventName: 'pull_request_review_comment',
    reply: { id: 5001, inReplyTo: 5000, body: 'Why?', login: 'octocat', forkHead: FORK },
    rules: [REVIEW, ...ANSWERS],
    inputs: INPUTS,
  });
  expect(r.outputs.status, r.stdout).toBe('skipped');
  expect(r.stdout).toMatch(/A reply in a review thread, but the token may not write: the workflow runs on/);
  expect(r.stdout).toContain('pull_request_review_comment for a PR from the fork mallory/demo-repo');
  expect(world.agentCalls()).toHaveLength(0);
});
