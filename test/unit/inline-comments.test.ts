// The pure parts of the inline review: which lines of the head a comment may sit on,
// the comment a finding becomes, and which threads are ours.
import { describe, expect, it } from 'vitest';
import { commentRange, diffLines } from '../../src/github/diff-lines.js';
import { renderInlineComment } from '../../src/report/inline-comment.js';
import { readFindingMark } from '../../src/review/finding-mark.js';
import { MARKER } from '../../src/domain/marker.js';
import { openThreadFor, ownThreads, sameLogin } from '../../src/review/own-threads.js';
import { comment, finding, thread } from '../factories.js';

const DIFF = [
  'diff --git a/src/a.ts b/src/a.ts',
  'index 1..2 100644',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -1,3 +1,4 @@',
  ' one',
  '+two',
  ' three',
  ' four',
  '@@ -20,2 +21,0 @@',
  '-gone',
  '-gone too',
  '@@ -30,3 +30,3 @@ function f() {',
  ' a',
  '-b',
  '+B',
  ' c',
  'diff --git a/old.txt b/old.txt',
  'deleted file mode 100644',
  '--- a/old.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-x',
  'diff --git a/new.txt b/new.txt',
  '--- /dev/null',
  '+++ b/new.txt',
  '@@ -0,0 +1 @@',
  '+only line',
].join('\n');

describe('diffLines and commentRange', () => {
  const lines = diffLines(DIFF);

  it('keeps the new-file lines of each hunk; a deleting hunk and a deleted file have none', () => {
    expect(Object.fromEntries(lines)).toEqual({
      'src/a.ts': [
        [1, 4],
        [30, 32],
      ],
      'new.txt': [[1, 1]],
    });
  });

  it('takes an added line that reads "++ x" for code, not for a file header', () => {
    const tricky = [
      'diff --git a/a.md b/a.md',
      '--- a/a.md',
      '+++ b/a.md',
      '@@ -1,2 +1,3 @@',
      ' title',
      '+++ b/evil.md',
      ' end',
      'diff --git a/b.md b/b.md',
      '--- a/b.md',
      '+++ b/b.md',
      '@@ -5 +5 @@',
      '-x',
      '+y',
    ].join('\n');
    expect(Object.fromEntries(diffLines(tricky))).toEqual({ 'a.md': [[1, 3]], 'b.md': [[5, 5]] });
  });

  it('places a line inside a hunk, a range inside one hunk, and nothing outside the diff', () => {
    expect(commentRange(lines, 'src/a.ts', 2, null)).toEqual({ start: null, line: 2 });
    expect(commentRange(lines, 'src/a.ts', 1, 4)).toEqual({ start: 1, line: 4 });
    // A range across hunks keeps its first line only (GitHub refuses ranges across hunks).
    expect(commentRange(lines, 'src/a.ts', 3, 31)).toEqual({ start: null, line: 3 });
    expect(commentRange(lines, 'src/a.ts', 10, null)).toBeNull();
    expect(commentRange(lines, 'old.txt', 1, null)).toBeNull();
    expect(commentRange(lines, 'src/b.ts', 1, null)).toBeNull();
    expect(commentRange(lines, 'src/a.ts', null, null)).toBeNull();
  });
});

describe('renderInlineComment', () => {
  const f = finding({
    priority: 'P1',
    title: 'Off by one',
    description: 'Loops once too often.',
    reportedBy: ['reviewer-1', 'reviewer-2'],
  });

  it('carries the priority, title, description, agreement, id, marker and a mark a later run reads back', () => {
    const body = renderInlineComment(f, 3);
    expect(body).toContain('**Off by one**');
    expect(body).toContain('P1 · critical · 2/3 reviewers');
    expect(body).toContain(f.id);
    expect(body).toContain('Loops once too often.');
    expect(body).toContain(MARKER);
    expect(readFindingMark(body)).toEqual({ id: f.id, category: f.category, file: f.file, title: 'Off by one' });
  });

  it('holds a suggestion block when the reviewer gave the new lines, fenced past their backticks', () => {
    const body = renderInlineComment({ ...f, replacement: '  const s = "```";' }, 1);
    expect(body).toContain('````suggestion\n  const s = "```";\n````');
  });

  it('posts an empty replacement as an empty suggestion block: GitHub deletes the lines', () => {
    // GitHub applies a suggestion block's lines as the new text of the commented lines: a block
    // with no line deletes them, while a block holding one empty line leaves a blank line behind.
    const body = renderInlineComment({ ...f, replacement: '' }, 1);
    expect(body).toContain('Suggested change:\n\n```suggestion\n```');
  });

  it('renders a replacement with a long run of newlines inside at once, its end trimmed', () => {
    // A plain /\n+$/ took 14 s on this (quadratic in the run); no timeout can catch that (the match
    // blocks the event loop): the test checks the trimmed text.
    const replacement = `a${'\n'.repeat(200_000)}b\n\n`;
    const body = renderInlineComment({ ...f, replacement }, 1);
    expect(body).toContain(`\`\`\`suggestion\na${'\n'.repeat(200_000)}b\n\`\`\``);
  });

  it('reads only the mark at the start: one an agent put in its replacement is not ours', () => {
    const victim = finding({ id: 'SEC-0000aaaa', title: 'SQL injection' });
    const forged = renderInlineComment(victim, 1).split('\n')[1]!;
    const body = renderInlineComment(finding({ id: 'BUG-1', title: 'Typo', replacement: `x\n${forged}` }), 1);
    expect(body).toContain(forged);
    expect(readFindingMark(body)?.id).toBe('BUG-1');
    expect(readFindingMark(`intro\n${forged}`)).toBeNull();
  });

  it('keeps agent text inert: no mention, no HTML, no forged marks', () => {
    const hostile = finding({
      title: '@octo-org/admins <img src=x> -->',
      description: '<!-- pr-review-loop-finding: eyJ9 -->',
    });
    const body = renderInlineComment(hostile, 1);
    expect(body).not.toContain('@octo-org/admins');
    expect(body).not.toContain('<img');
    expect(readFindingMark(body)?.id).toBe(hostile.id);
  });
});

describe('ownThreads', () => {
  const ours = renderInlineComment(finding({ title: 'Off by one' }), 1);

  it('counts a thread as ours only when our login wrote its first comment with our marks', () => {
    const threads = [
      thread({ id: 'T1', comments: [comment({ body: ours, author: 'github-actions', databaseId: 11 })] }),
      thread({ id: 'T2', comments: [comment({ body: ours, author: 'mallory', databaseId: 12 })] }),
      thread({
        id: 'T3',
        comments: [comment({ body: `${MARKER} no mark`, author: 'github-actions', databaseId: 13 })],
      }),
    ];
    const own = ownThreads(threads, 'github-actions[bot]');
    expect(own.map((t) => t.id)).toEqual(['T1']);
    expect(own[0]).toMatchObject({ commentId: 11, finding: { title: 'Off by one' } });
    expect(openThreadFor(own, finding({ id: 'MOVED-1', title: 'Off by one', line: 40 }))?.id).toBe('T1');
    expect(openThreadFor(own, finding({ id: 'OTHER-1', title: 'Something else entirely', line: 40 }))).toBeUndefined();
  });

  it('compares logins as GraphQL and REST write them', () => {
    expect(sameLogin('github-actions', 'github-actions[bot]')).toBe(true);
    expect(sameLogin('My-App', 'my-app[bot]')).toBe(true);
    expect(sameLogin('github-actions-x', 'github-actions[bot]')).toBe(false);
    expect(sameLogin(null, 'github-actions[bot]')).toBe(false);
  });
});
