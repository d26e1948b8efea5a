// A reviewer quotes a secret it read in the code, in a finding's title and description. The title
// goes to the report comments' hidden state (written with characters escaped, where no later
// redaction sees it), the inline comment, the job summary, the log and the fix commit message:
// the secret must reach none of them.
import { afterEach, expect, it } from 'vitest';
import { decodeState } from '../../../src/report/state.js';
import { createWorld, type World } from '../harness.js';
import { FIXED_MATH, finding, reviewerAnswer } from '../scenarios.js';

// A GitHub token shape, assembled so this file holds no literal token.
const SECRET = ['ghp', '_', 'Zq7vR2kLm9XwT4bN8cJ5hY1uE6oA3sD0fG'].join('');
const LEAKY = finding({
  title: `add() subtracts (deploy token ${SECRET} is also hard-coded)`,
  description: `Found while reading: const token = "${SECRET}"; add(2, 3) is -1.`,
});

let world: World;
afterEach(async () => {
  await world.close();
});

it('redacts a secret in finding text from every place the finding goes', async () => {
  world = await createWorld();
  const r = await world.run({
    inputs: { verify: 'npm test' },
    rules: [
      { role: 'reviewer', round: 1, answer: reviewerAnswer([LEAKY]) },
      { role: 'reviewer', answer: reviewerAnswer([]) },
      { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } },
    ],
  });
  expect(r.outputs.status, r.stdout).toBe('converged');
  const comments = world.github.comments(7).map((c) => c.body);
  // The finding was posted (redacted), not dropped.
  expect(comments[0]).toContain('add() subtracts (deploy token [REDACTED]');
  const states = comments.map((b) => JSON.stringify(decodeState(b)));
  const inline = world.github.state.threads(7).flatMap((t) => t.comments.map((c) => c.body));
  const commits = (await world.headLog()).map((c) => `${c.subject}\n${c.body}`);
  const places = { comments, states, inline, commits, summary: [r.summary], log: [r.stdout, r.stderr] };
  for (const [where, texts] of Object.entries(places)) {
    for (const t of texts) expect(t.includes(SECRET), `${where}: ${t.slice(0, 400)}`).toBe(false);
  }
  expect(states.some((s) => s.includes('[REDACTED]'))).toBe(true);
});
