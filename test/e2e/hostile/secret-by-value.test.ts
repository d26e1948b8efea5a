// A secret recognised in one field is redacted from the next: a reviewer quotes realistic secrets
// with the context a rule sees (`aws_secret_access_key = …`, a webhook URL, `AccountKey=…`) in its
// descriptions and fullReport, and the same values bare in its titles, suggestion and replacement;
// the fixer's reason for a rejection quotes one bare (a reply); a person pasted a password in a
// review thread, and a hook's finding quotes a key in context. No bare copy may reach the report
// comments, their hidden state, the inline comments and replies, the job summary, the log and its
// annotations, the fix commit or the report JSON.
import { afterEach, expect, it } from 'vitest';
import { decodeState } from '../../../src/report/state.js';
import { SAMPLE_PROJECT } from '../../fakes/git-sandbox.js';
import {
  AWS_SECRET,
  AZURE_KEY,
  DISCORD_TOKEN,
  HOOK_CONTEXT,
  HOOK_KEY,
  IN_CONTEXT,
  SLACK_PATH,
  THREAD_CONTEXT,
  THREAD_PASSWORD,
  URL_TOKEN,
} from '../../fixtures/hostile/secrets-in-context.js';
import { createWorld, type World } from '../harness.js';
import { analyzerAnswer, FIXED_MATH, finding, reviewerAnswer } from '../scenarios.js';

const context = (name: string) => IN_CONTEXT.find(([n]) => n === name)![1];

const LEAKY_BUG = finding({
  title: `add() subtracts; the CI key ${AWS_SECRET} leaks too`,
  description: [
    'add(a, b) returns a - b. ci.env also holds:',
    context('an AWS secret key'),
    context('a Slack webhook'),
    context('a Discord webhook'),
  ].join('\n'),
  suggestion: `Return a + b, and revoke the webhook ${SLACK_PATH}.`,
  replacement: `  return a + b; // was ${DISCORD_TOKEN}`,
});
const LEAKY_KEY = finding({
  priority: 'P2',
  category: 'security',
  line: 1,
  title: `Storage key ${AZURE_KEY} is committed`,
  description: 'See the full report.',
  suggestion: `Move ${AZURE_KEY} to a secret.`,
});
const FROM_THREAD = finding({
  priority: 'P3',
  category: 'security',
  file: 'README.md',
  line: 1,
  title: `Rotate ${THREAD_PASSWORD}`,
  description: 'A reviewer pasted it in a thread.',
});
const answer = {
  ...reviewerAnswer([LEAKY_BUG, LEAKY_KEY, FROM_THREAD]),
  fullReport: `Secrets in the tree: ${context('an Azure storage key')}\n${context('a token in a URL')}`,
};
const HOOK_FINDING = JSON.stringify([
  {
    priority: 'P3',
    category: 'security',
    file: 'README.md',
    line: 1,
    title: `Key ${HOOK_KEY}`,
    description: HOOK_CONTEXT,
  },
]);

let world: World;
afterEach(async () => {
  await world.close();
});

it('redacts a value any rule recognised, wherever it appears later in the run', async () => {
  // The hook's findings come from a file of the repository: its command line (logged) holds none.
  const config = 'hooks:\n  before-review: cp hook-findings.json "$REVIEW_LOOP_FINDINGS_FILE"\n';
  world = await createWorld({
    sandbox: {
      baseFiles: { ...SAMPLE_PROJECT, '.github/pr-review-loop.yml': config, 'hook-findings.json': HOOK_FINDING },
    },
  });
  world.github.state.addThread(7, {
    path: 'README.md',
    line: 1,
    comments: [{ body: THREAD_CONTEXT, author: 'mallory' }],
  });
  const r = await world.run({
    inputs: { verify: 'npm test' },
    rules: [
      { role: 'reviewer', round: 1, answer },
      { role: 'reviewer', answer: reviewerAnswer([]) },
      { role: 'analyzer', answer: analyzerAnswer([]) },
      {
        role: 'fixer',
        fixAll: true,
        edits: { 'src/math.js': FIXED_MATH },
        rejectTitles: { 'Storage key': `Rotating ${URL_TOKEN} is for the ops team.`, Rotate: 'Not ours.', Key: 'No.' },
      },
    ],
  });
  expect(r.outputs.status, r.stdout).toBe('converged');

  const comments = world.github.comments(7).map((c) => c.body);
  const states = comments.map((b) => JSON.stringify(decodeState(b)));
  const threads = world.github.state.threads(7);
  const inline = threads.flatMap((t) => t.comments.filter((c) => c.author !== 'mallory').map((c) => c.body));
  const commits = (await world.headLog()).map((c) => `${c.subject}\n${c.body}`);
  const places = {
    comments,
    states,
    inline,
    commits,
    summary: [r.summary],
    'log and annotations': [r.stdout, r.stderr],
    'report JSON': [JSON.stringify(r.report)],
  };
  const values = { AWS_SECRET, AZURE_KEY, DISCORD_TOKEN, SLACK_PATH, URL_TOKEN, THREAD_PASSWORD, HOOK_KEY };
  // A webhook's path may be redacted part by part: none of its parts may show.
  const partsOf = (v: string) => v.split('/').filter((part) => part.length >= 8);
  const leaks = Object.entries(places).flatMap(([where, texts]) =>
    Object.entries(values).flatMap(([name, v]) => {
      const n = partsOf(v).reduce((sum, part) => sum + texts.join('\n').split(part).length - 1, 0);
      return n ? [`${name} ×${n} in ${where}`] : [];
    }),
  );
  expect(leaks).toEqual([]);
  // Each finding was posted (redacted), inline too, and the rejection was answered: nothing was dropped.
  expect(comments[0]).toContain('add() subtracts; the CI key [REDACTED] leaks too');
  expect(comments[0]).toContain('Storage key [REDACTED] is committed');
  expect(inline.some((b) => b.includes('```suggestion'))).toBe(true);
  expect(inline.some((b) => b.includes('Rotating [REDACTED] is for the ops team.'))).toBe(true);
  expect(commits[0]).toContain('[REDACTED]');
});
