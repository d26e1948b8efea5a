import { describe, expect, it } from 'vitest';
import { renderFixReport } from '../../src/report/markdown.js';
import { sanitize } from '../../src/security/sanitize.js';
import {
  SHOP_FIX_SHA as FIX_SHA,
  SHOP_HEAD as HEAD,
  shopAgent as agent,
  shopReportCtx as ctx,
  shopFixRecord as fixRecord,
} from '../factories.js';

describe('renderFixReport', () => {
  it('reports a pushed fix with commit links, fixed and rejected findings, and the fixer', () => {
    const md = renderFixReport(fixRecord(), ctx);
    expect(md.split('\n')[0]).toBe('## 🛠️ Fix round 1 · ✅ Fixes pushed');
    expect(md).toContain(`fix commit: [\`9c1185a\`](https://github.com/octo-org/shop-api/commit/${FIX_SHA})`);
    expect(md).toContain(`Previous head: [\`3f78685\`](https://github.com/octo-org/shop-api/commit/${HEAD})`);
    expect(md).toContain('### Fixed (1)\n\n- **`SEC-1a2b3c4d`** · Switched to a parameterised query.');
    expect(md).toContain(
      '### Rejected (1)\n\n- **`QUAL-0badc0de`** · The two roundings differ on purpose (tax vs. display).',
    );
    expect(md).toContain('| `npm ci` | ✅ | 0 | 14.2 s |');
    expect(md).toContain(
      '| fixer | claude | `claude-sonnet-4-5` | `claude-sonnet-4-5-20250929` | ✅ | 3m 21s | 48,210 / 2,315 | $0.18 |',
    );
    expect(md).not.toContain('Output of');
    expect(md).toContain('[Workflow run](https://github.com/octo-org/shop-api/actions/runs/1234567)');
  });

  it('shows the failed verification command, its exit code and its output tail in a fenced block', () => {
    const tail =
      'FAIL test/cart.test.ts > rounds prices\nAssertionError: expected 10.01 to be 10\n```\nTests 1 failed | 40 passed';
    const md = renderFixReport(
      fixRecord({
        outcome: 'verify-failed',
        message: 'npm test failed; nothing was pushed.',
        verify: [
          { command: 'npm ci', exitCode: 0, durationMs: 14_200, outputTail: 'ok', timedOut: false },
          { command: 'npm test', exitCode: 1, durationMs: 8_900, outputTail: tail, timedOut: false },
          { command: 'npm run e2e', exitCode: null, durationMs: 600_000, outputTail: '', timedOut: true },
        ],
      }),
      ctx,
    );
    expect(md).toContain('❌ Verification failed: nothing pushed');
    expect(md).toContain('`9c1185a` (not pushed)');
    expect(md).not.toContain(`/commit/${FIX_SHA}`);
    expect(md).toContain('| `npm test` | ❌ | 1 | 8.9 s |');
    expect(md).toContain('| `npm run e2e` | ❌ | timed out | 10m 00s |');
    // The tail contains a ``` line, so the block needs a longer fence to stay one block.
    expect(md).toContain(`**Output of \`npm test\`** (last lines):\n\n\`\`\`\`text\n${tail}\n\`\`\`\``);
    expect(md).toContain('**Output of `npm run e2e`** (last lines):\n\n```text\n(no output)\n```');
    expect(md).not.toContain('Output of `npm ci`');
  });

  it.each([
    ['fixer-failed', '❌ The fixer failed'],
    ['gate-blocked', '🚧 The gate reviewer blocked the fix'],
    ['push-rejected', '⛔ Push rejected'],
    ['no-changes', '➖ The fixer made no changes'],
    ['refused', '⛔ Fix refused'],
    ['dry-run', '🧪 Dry run'],
  ] as const)('has a headline for %s', (outcome, headline) => {
    const md = renderFixReport(fixRecord({ outcome, commitSha: null }), ctx);
    expect(md.split('\n')[0]).toContain(headline);
    expect(md).toContain('no fix commit.');
  });

  it('neutralises mentions and markup in agent-written descriptions and reasons', () => {
    const md = renderFixReport(
      fixRecord({
        fixed: [{ findingId: 'SEC-1a2b3c4d', description: 'fixed, thanks @octocat <!-- x -->' }],
        rejected: [{ findingId: 'QUAL-0badc0de', reason: '# not a heading\n@team please look' }],
        fixer: agent({ name: 'fixer', role: 'fixer', status: 'failed', error: 'claude timed out after 20 min' }),
        outcome: 'fixer-failed',
      }),
      ctx,
    );
    expect(md).not.toMatch(/(^|[^\w`])@[A-Za-z0-9]/m);
    expect(md).not.toContain('<!--');
    expect(md).toContain('- **`QUAL-0badc0de`** · \u200b# not a heading @\u200bteam please look');
    expect(md).toContain('❌ claude timed out after 20 min');
  });

  it('survives the sanitizer unchanged', () => {
    const md = renderFixReport(fixRecord(), ctx);
    expect(sanitize(md)).toBe(md);
  });
});
