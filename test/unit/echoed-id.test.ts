// A finding reported again in a later round under the id its reviewer echoed from
// earlier-findings.json keeps that id (a narrower title, a lower priority, a moved line), and is
// found stuck; an echo of a dismissed finding's id, or one about another file, is not taken.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../src/agents/registry.js';
import { NO_USAGE } from '../../src/agents/types.js';
import { loadPrompts } from '../../src/roles/prompts.js';
import { runReviewRound } from '../../src/review/round.js';
import { earlierFindings } from '../../src/review/earlier.js';
import { withEchoedId } from '../../src/review/echoed-id.js';
import { groupFindings, normalizeFinding } from '../../src/review/findings.js';
import { fingerprint, markStuck } from '../../src/review/stuck.js';
import type { Dismissal } from '../../src/domain/findings.js';
import { PROMPTS_URL, prContext, shopReviewRecord } from '../factories.js';

const round1 = normalizeFinding(
  {
    priority: 'P0',
    category: 'security',
    file: 'src/render.py',
    line: 40,
    title: 'Attribute names are not checked: `onclick` and `@click` both pass',
    description: 'Both event-handler forms reach the output.',
  },
  'reviewer-1',
);
const earlier = earlierFindings(shopReviewRecord({ findings: [round1], stuck: [] }), null);
// Round 2: only `@click` is left, two lines lower, and the reviewer lowered its priority.
const narrowed = {
  id: round1.id,
  priority: 'P2' as const,
  category: 'security',
  file: 'src/render.py',
  line: 42,
  title: '`@click` still passes the attribute check',
  description: 'The fix covers `on*` names only.',
};
const rules = { earlier, dismissed: new Set<string>() };

describe('an echoed earlier id', () => {
  it('is kept through a narrower title, a new priority and a moved line, and the fix counts as stuck', () => {
    const plain = normalizeFinding(narrowed, 'reviewer-2');
    expect(plain.id).not.toBe(round1.id);
    // Without the echo the narrowed title reads as another problem: not stuck.
    expect(markStuck([plain], [fingerprint(round1)]).stuck).toEqual([]);
    const echoed = withEchoedId(plain, narrowed.id, rules);
    expect(echoed).toMatchObject({ id: round1.id, priority: 'P2', line: 42, title: narrowed.title });
    expect(markStuck([echoed], [fingerprint(round1)]).stuck.map((f) => f.id)).toEqual([round1.id]);
  });

  it('two reviewers echoing one id are one finding reported by both', () => {
    const a = withEchoedId(normalizeFinding(narrowed, 'reviewer-1'), round1.id, rules);
    const b = withEchoedId(
      normalizeFinding({ ...narrowed, line: 12, title: 'Decorator-style names bypass the check' }, 'reviewer-2'),
      round1.id,
      rules,
    );
    const grouped = groupFindings([a, b]);
    expect(grouped).toHaveLength(1);
    expect(grouped[0]!.reportedBy).toEqual(['reviewer-1', 'reviewer-2']);
  });

  it('is not taken for another file, an unknown id, or a dismissed finding', () => {
    const other = normalizeFinding({ ...narrowed, file: 'src/other.py' }, 'reviewer-1');
    expect(withEchoedId(other, round1.id, rules).id).toBe(other.id);
    const plain = normalizeFinding(narrowed, 'reviewer-1');
    expect(withEchoedId(plain, 'SEC-00000000', rules).id).toBe(plain.id);
    expect(withEchoedId(plain, round1.id, { ...rules, dismissed: new Set([round1.id]) }).id).toBe(plain.id);
  });

  it('follows a renamed file', () => {
    const moved = normalizeFinding({ ...narrowed, file: 'src/attrs.py' }, 'reviewer-1');
    const renames = new Map([['src/render.py', 'src/attrs.py']]);
    expect(withEchoedId(moved, round1.id, { ...rules, renames }).id).toBe(round1.id);
  });
});

describe('a later round', () => {
  async function round2(echo: string, dismissed: boolean) {
    const scratch = await mkdtemp(path.join(tmpdir(), 'echo-round-'));
    const answer = { conclusion: 'request_changes', findings: [{ ...narrowed, id: echo }], fullReport: 'r' };
    const adapter = {
      kind: 'claude' as const,
      async run(inv: { model: string }) {
        const text = `BEGIN_JSON\n${JSON.stringify(answer)}\nEND_JSON`;
        return { text, model: inv.model, sessionId: null, usage: NO_USAGE, durationMs: 1 };
      },
    };
    const env = {
      registry: createRegistry({ adapters: { claude: adapter } }),
      prompts: await loadPrompts(PROMPTS_URL),
      ...{ workDir: scratch, scratchDir: scratch, timeoutMs: 10_000 },
    };
    const spec = { agent: 'claude' as const, model: 'm' };
    // Dismissed on a line far from the new report: only the echoed id could tie the two.
    const dismissal: Dismissal = {
      ...{ thread: 'PRRT_1', finding: fingerprint(round1), line: 400 },
      ...{ by: 'maintainer', reason: 'accepted', via: 'command' as const },
    };
    try {
      return await runReviewRound(env, {
        ...{ round: 2, ctx: prContext({}), reviewers: [spec], analyzer: spec },
        ...{ fixedBefore: [fingerprint(round1)], earlier },
        ...(dismissed ? { dismissals: [dismissal] } : {}),
      });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  it("takes the reviewer's echo from its answer: the fix is found stuck under its own id", async () => {
    const { record } = await round2(round1.id, false);
    expect(record.stuck.map((f) => [f.id, f.title])).toEqual([[round1.id, narrowed.title]]);
  });

  it('does not take the echo of a dismissed finding', async () => {
    const { record } = await round2(round1.id, true);
    expect(record.dismissed).toEqual([]);
    expect(record.stuck.map((f) => f.title)).toEqual([]);
    expect(record.findings.map((f) => f.title)).toEqual([narrowed.title]);
  });
});
