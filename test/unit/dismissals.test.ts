// Reading dismissals from the action's threads and applying them to a round's findings.
import { describe, expect, it } from 'vitest';
import type { ReviewThread } from '../../src/domain/pull-request.js';
import { renderInlineComment } from '../../src/report/inline-comment.js';
import {
  dismissalRequests,
  dismissalTracker,
  dismissCommand,
  judgeDismissals,
  splitDismissed,
  withCached,
  type Verdict,
} from '../../src/review/dismissals.js';
import { normalizeFinding } from '../../src/review/findings.js';
import type { Dismissal } from '../../src/domain/findings.js';

const BOT = 'github-actions[bot]';
const STYLE = normalizeFinding(
  {
    priority: 'P3',
    category: 'docs',
    file: 'src/math.js',
    line: 1,
    title: 'add() has no JSDoc',
    description: 'The exported `add` function has no JSDoc block saying what it returns.',
  },
  'reviewer-1',
);
const BUG = normalizeFinding(
  {
    priority: 'P1',
    category: 'bug',
    file: 'src/math.js',
    line: 2,
    title: 'add subtracts instead of adding',
    description: 'return a - b',
    suggestion: 'return a + b',
  },
  'reviewer-1',
);

let nextId = 100;
function ourThread(f = STYLE, over: Partial<ReviewThread> = {}, replies: { author: string; body: string }[] = []) {
  const comment = (author: string, body: string) => ({
    id: `C${nextId}`,
    databaseId: nextId++,
    body,
    author,
    authorAssociation: 'NONE',
    path: f.file,
    line: f.line,
    createdAt: '2026-11-26T00:00:00Z',
  });
  return {
    id: `T${nextId++}`,
    isResolved: false,
    resolvedBy: null,
    isOutdated: false,
    path: f.file,
    line: f.line,
    comments: [comment('github-actions', renderInlineComment(f, 1)), ...replies.map((r) => comment(r.author, r.body))],
    ...over,
  } satisfies ReviewThread;
}

const writers = async (login: string): Promise<Verdict> =>
  login === 'maintainer' ? { ok: true } : { ok: false, why: `${login} has read access` };

describe('the dismiss command', () => {
  it('is read at the start of a reply, with the rest as the reason', () => {
    expect(dismissCommand('/review-loop dismiss   We document callers,\n not internals. ')).toBe(
      'We document callers, not internals.',
    );
    expect(dismissCommand('/Review-Loop DISMISS')).toBe('');
    expect(dismissCommand('please /review-loop dismiss')).toBeNull();
    expect(dismissCommand('/review-loop dismissed')).toBeNull();
    expect(dismissCommand('/review-loop')).toBeNull();
    expect(dismissCommand(`/review-loop dismiss ${'x'.repeat(1000)}`)).toHaveLength(300);
  });
});

describe('requests in our threads', () => {
  it("finds a person's command and a person's resolution, never the action's own or a human's thread", () => {
    const command = ourThread(STYLE, {}, [{ author: 'maintainer', body: '/review-loop dismiss not needed' }]);
    const resolved = ourThread(BUG, { isResolved: true, resolvedBy: 'maintainer' });
    const resolvedByUs = ourThread(BUG, { isResolved: true, resolvedBy: 'github-actions' });
    const ownCommand = ourThread(BUG, {}, [{ author: 'github-actions', body: '/review-loop dismiss' }]);
    const human = { ...ourThread(BUG, {}, [{ author: 'maintainer', body: '/review-loop dismiss' }]) };
    human.comments[0] = { ...human.comments[0]!, author: 'mallory' };
    const requests = dismissalRequests([command, resolved, resolvedByUs, ownCommand, human], BOT, []);
    expect(requests.map((r) => [r.thread, r.by, r.via, r.reason])).toEqual([
      [command.id, 'maintainer', 'command', 'not needed'],
      [resolved.id, 'maintainer', 'resolved', ''],
    ]);
    expect(requests[0]!.finding).toMatchObject({ id: STYLE.id, title: STYLE.title, file: 'src/math.js' });
  });

  it('does not take the resolution of a thread whose finding the loop fixed for a dismissal', () => {
    const resolved = ourThread(BUG, { isResolved: true, resolvedBy: 'maintainer' });
    const fixed = [{ id: 'BUG-other', category: 'bug', file: 'src/math.js', title: BUG.title }];
    expect(dismissalRequests([resolved], BOT, fixed)).toEqual([]);
  });
});

describe('verdicts', () => {
  it('accepts the first request of someone with write access per thread, and lists the refused', async () => {
    const t1 = ourThread(STYLE, {}, [
      { author: 'mallory', body: '/review-loop dismiss spam' },
      { author: 'mallory', body: '/review-loop dismiss spam again' },
    ]);
    const t2 = ourThread(BUG, { isResolved: true, resolvedBy: 'maintainer' }, [
      { author: 'mallory', body: '/review-loop dismiss' },
    ]);
    const asked: string[] = [];
    const { accepted, refused } = await judgeDismissals(dismissalRequests([t1, t2], BOT, []), async (l) => {
      asked.push(l);
      return writers(l);
    });
    expect(accepted.map((d) => [d.thread, d.by, d.via])).toEqual([[t2.id, 'maintainer', 'resolved']]);
    // One refusal per person and thread; none where a writer dismissed it anyway.
    expect(refused.map((r) => [r.thread, r.by, r.why])).toEqual([[t1.id, 'mallory', 'mallory has read access']]);
    expect(asked.sort()).toEqual(['maintainer', 'mallory']);
  });
});

describe('the cache of earlier runs', () => {
  const cached = (thread: string): Dismissal => ({
    thread,
    finding: { id: STYLE.id, category: 'docs', file: 'src/math.js', title: STYLE.title },
    line: 1,
    by: 'maintainer',
    reason: 'r',
    via: 'resolved',
  });

  it('serves a thread this run cannot read, and yields to a thread it reads whole', () => {
    const undone = ourThread(STYLE); // unresolved again: the person took it back
    // GitHub returned 50 of its 120 comments: the command may be among the others.
    const long = ourThread(
      STYLE,
      { commentCount: 120 },
      Array.from({ length: 49 }, () => ({ author: 'octocat', body: 'hm' })),
    );
    const kept = withCached([], [cached('T-gone'), cached(undone.id), cached(long.id)], [undone, long]);
    expect(kept.map((d) => d.thread)).toEqual(['T-gone', long.id]);
  });

  it('keeps what a round learned for the next one', async () => {
    const tracker = dismissalTracker({ ownLogin: BOT, cached: [], mayDismiss: writers, log: () => undefined });
    const t = ourThread(STYLE, { isResolved: true, resolvedBy: 'maintainer' });
    expect((await tracker.forRound([t], [])).dismissals).toHaveLength(1);
    // The next round's threads no longer include it (say, past the pages the action reads).
    expect((await tracker.forRound([], [])).dismissals.map((d) => d.thread)).toEqual([t.id]);
  });
});

describe("a decision's thread", () => {
  it("is dismissed or resolved only by someone who may answer it: not the PR's author, even with write access", async () => {
    const mayAnswer = async (login: string): Promise<Verdict> =>
      login === 'author' ? { ok: false, why: "author is the PR's author" } : { ok: true };
    const canWrite = async (login: string): Promise<Verdict> =>
      ['author', 'maintainer'].includes(login) ? { ok: true } : { ok: false, why: `${login} has read access` };
    const tracker = dismissalTracker({
      ownLogin: BOT,
      cached: [],
      mayDismiss: canWrite,
      mayAnswer,
      log: () => undefined,
    });
    const byAuthor = ourThread(STYLE, { isResolved: true, resolvedBy: 'author' });
    const decisions = new Set([STYLE.id]);
    const refused = await tracker.forRound([byAuthor], [], decisions);
    expect(refused.dismissals).toEqual([]);
    expect(refused.refused.map((r) => [r.by, r.why])).toEqual([['author', "author is the PR's author"]]);
    // Not a decision: the same writer's resolution dismisses it, as before.
    const plain = dismissalTracker({
      ownLogin: BOT,
      cached: [],
      mayDismiss: canWrite,
      mayAnswer,
      log: () => undefined,
    });
    expect((await plain.forRound([byAuthor], [])).dismissals.map((d) => d.by)).toEqual(['author']);
    // A maintainer who did not write the change dismisses the decision.
    const byMaintainer = ourThread(STYLE, {}, [{ author: 'maintainer', body: '/review-loop dismiss not our call' }]);
    expect((await tracker.forRound([byMaintainer], [], decisions)).dismissals.map((d) => d.by)).toEqual(['maintainer']);
  });
});

describe('applying dismissals', () => {
  const [request] = dismissalRequests([ourThread(STYLE, { isResolved: true, resolvedBy: 'maintainer' })], BOT, []);

  it('drops the dismissed finding by its id, and by its title near its line in a renamed file; not far away', () => {
    const renamed = { ...STYLE, id: 'DOC-renamed', line: 2, file: 'lib/math.js' };
    // The same words 40 lines down are another place, maybe another instance: not silenced.
    const far = { ...STYLE, id: 'DOC-far', line: 40 };
    const renames = new Map([['src/math.js', 'lib/math.js']]);
    const { kept, dismissed } = splitDismissed([STYLE, renamed, far, BUG], [request!], renames);
    expect(kept.map((f) => f.id)).toEqual(['DOC-far', BUG.id]);
    expect(dismissed.map((d) => [d.finding.id, d.dismissal.by])).toEqual([
      [STYLE.id, 'maintainer'],
      ['DOC-renamed', 'maintainer'],
    ]);
  });

  it('a thread with no line (outdated) covers only the same kind of problem in nearly the same title', () => {
    const outdated = { ...request!, line: null };
    const same = { ...STYLE, id: 'DOC-same', line: 30 };
    const other = { ...STYLE, id: 'DOC-other', line: 30, title: 'add() has no JSDoc for its errors' };
    const bug = { ...STYLE, id: 'BUG-same-title', category: 'bug', line: 30 };
    const { kept } = splitDismissed([same, other, bug], [outdated]);
    expect(kept.map((f) => f.id)).toEqual(['DOC-other', 'BUG-same-title']);
  });

  it("drops another reviewer's words for the same problem near the thread's line", () => {
    const reworded = normalizeFinding(
      {
        priority: 'P2',
        category: 'docs',
        file: 'src/math.js',
        line: 1,
        title: 'Missing documentation comment',
        description: 'The exported `add` function lacks a JSDoc block describing what it returns.',
      },
      'reviewer-2',
    );
    const elsewhere = { ...reworded, id: 'DOC-far', line: 30 };
    const { kept, dismissed } = splitDismissed([reworded, elsewhere, BUG], [request!]);
    expect(dismissed.map((d) => d.finding.id)).toEqual([reworded.id]);
    expect(kept.map((f) => f.id)).toEqual(['DOC-far', BUG.id]);
  });

  it('never drops a human thread', () => {
    const human = { ...STYLE, source: { type: 'human' as const, name: 'octocat', reviewId: '1' } };
    expect(splitDismissed([human], [request!]).kept).toHaveLength(1);
  });
});
