// Who wrote a review thread decides whether it blocks. GraphQL gives every
// PullRequestReviewComment an `authorAssociation` (CommentAuthorAssociation); the fake serves
// it as GitHub does, and the action's query (validated against the schema) reads it.
import { parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/github/client.js';
import { getReviewThreads, REVIEW_THREADS_QUERY } from '../../src/github/threads.js';
import { splitByWriters } from '../../src/review/threads.js';
import {
  githubSchema,
  startFakeGitHub,
  type AuthorAssociation,
  type FakeGitHub,
  type FakeThreadInput,
} from '../fakes/github/index.js';

let fake: FakeGitHub;
const REPO = { owner: 'octo-org', repo: 'demo-repo' };

/** A one-comment thread; without `association` the fake derives it from the repository, as GitHub does. */
function thread(line: number, body: string, author: string | null, association?: AuthorAssociation): FakeThreadInput {
  const comment = { databaseId: line, body, author, ...(association ? { authorAssociation: association } : {}) };
  return { path: 'a.js', line, comments: [comment] };
}

beforeAll(async () => {
  fake = await startFakeGitHub({
    ...REPO,
    collaborators: { carol: 'write' },
    pulls: [
      {
        number: 7,
        title: 'PR',
        user: 'dev',
        headRef: 'feature/x',
        reviewThreads: [
          thread(1, 'owner', 'octo-org'),
          thread(2, 'invited', 'carol'),
          thread(3, 'org member', 'mia', 'MEMBER'),
          thread(4, 'drive-by', 'random'),
          thread(5, 'earlier PR', 'old', 'CONTRIBUTOR'),
          thread(6, 'deleted account', null),
        ],
      },
    ],
  });
});
afterAll(async () => {
  await fake?.close();
});

describe('review thread comments carry authorAssociation', () => {
  it("the query asks for it and is valid against GitHub's schema", () => {
    expect(REVIEW_THREADS_QUERY).toMatch(/authorAssociation/);
    expect(validate(githubSchema(), parse(REVIEW_THREADS_QUERY))).toEqual([]);
  });

  it('the fake answers each association as GitHub would, and only writers block', async () => {
    const octokit = createClient({ token: 't', baseUrl: fake.url, log: () => undefined, retryAfterBaseValue: 1 });
    const { threads } = await getReviewThreads(octokit, REPO, 7);
    const byBody = Object.fromEntries(threads.map((t) => [t.comments[0]!.body, t.comments[0]!.authorAssociation]));
    expect(byBody).toEqual({
      owner: 'OWNER',
      invited: 'COLLABORATOR',
      'org member': 'MEMBER',
      'drive-by': 'NONE',
      'earlier PR': 'CONTRIBUTOR',
      'deleted account': 'NONE',
    });
    const { writers, outsiders } = splitByWriters(threads);
    expect(writers.map((t) => t.comments[0]!.body)).toEqual(['owner', 'invited', 'org member']);
    expect(outsiders.map((t) => t.comments[0]!.body)).toEqual(['drive-by', 'earlier PR', 'deleted account']);
  });
});
