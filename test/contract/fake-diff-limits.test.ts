// The fake GitHub refuses what GitHub refuses: the diff media type past 300 files or 20,000
// lines (406 too_large), and "List pull requests files" stops at 3,000 files
// (see test/fakes/github/routes/pulls.ts for the documentation quoted).
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGitHub, type FakeGitHub, type FakePullInput } from '../fakes/github/index.js';

const fakes: FakeGitHub[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fakeWith(pull: Partial<FakePullInput>): Promise<FakeGitHub> {
  const pulls = [{ number: 7, title: 'T', user: 'alice', headRef: 'feature/x', ...pull }];
  const fake = await startFakeGitHub({ owner: 'octo-org', repo: 'demo-repo', pulls });
  fakes.push(fake);
  return fake;
}

const addedFiles = (n: number) =>
  Array.from({ length: n }, (_v, i) => ({ filename: `gen/f${i}.txt`, status: 'added' as const, additions: 1 }));
const diffOfLines = (n: number) => `${Array.from({ length: n }, (_v, i) => `+line ${i}`).join('\n')}\n`;

async function getDiff(fake: FakeGitHub): Promise<{ status: number; body: string }> {
  const headers = { accept: 'application/vnd.github.diff' };
  const res = await fetch(`${fake.url}/repos/octo-org/demo-repo/pulls/7`, { headers });
  return { status: res.status, body: await res.text() };
}

describe('fake GitHub: diff media type limits', () => {
  it('serves the diff of exactly 300 files and 20,000 lines', async () => {
    const fake = await fakeWith({ files: addedFiles(300), diff: diffOfLines(20_000) });
    const res = await getDiff(fake);
    expect(res.status).toBe(200);
    expect(res.body.split('\n')).toHaveLength(20_001);
  });

  it('answers 406 too_large, as GitHub does, past 300 files', async () => {
    const fake = await fakeWith({ files: addedFiles(301), diff: diffOfLines(10) });
    const res = await getDiff(fake);
    expect(res.status).toBe(406);
    expect(JSON.parse(res.body)).toEqual({
      message:
        'Sorry, the diff exceeded the maximum number of files (300). ' +
        "Consider using 'List pull requests files' API or locally cloning the repository instead.",
      errors: [{ resource: 'PullRequest', field: 'diff', code: 'too_large' }],
      documentation_url: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests-files',
      status: '406',
    });
  });

  it('answers 406 too_large past 20,000 lines', async () => {
    const fake = await fakeWith({ files: addedFiles(1), diff: diffOfLines(20_001) });
    const res = await getDiff(fake);
    expect(res.status).toBe(406);
    expect(JSON.parse(res.body)).toMatchObject({
      message: 'Sorry, the diff exceeded the maximum number of lines (20000)',
      errors: [{ resource: 'PullRequest', field: 'diff', code: 'too_large' }],
    });
  });

  it('still serves the PR as JSON, with the real changed_files count', async () => {
    const fake = await fakeWith({ files: addedFiles(3001), diff: diffOfLines(10) });
    const res = await fetch(`${fake.url}/repos/octo-org/demo-repo/pulls/7`);
    expect(res.status).toBe(200);
    expect((await res.json()).changed_files).toBe(3001);
  });
});

describe('fake GitHub: list pull request files', () => {
  it('stops at 3,000 files however many the PR changes', async () => {
    const fake = await fakeWith({ files: addedFiles(3001), diff: diffOfLines(10) });
    const names: string[] = [];
    for (let page = 1; page <= 31; page++) {
      const res = await fetch(`${fake.url}/repos/octo-org/demo-repo/pulls/7/files?per_page=100&page=${page}`);
      const batch = (await res.json()) as { filename: string }[];
      names.push(...batch.map((f) => f.filename));
      if (!res.headers.get('link')?.includes('rel="next"')) break;
    }
    expect(names).toHaveLength(3000);
    expect(names).not.toContain('gen/f3000.txt');
  });
});
