// The config writers the adapters share: deepMerge (agent-config over our
// defaults) and the TOML serializer for Codex's config.toml.
import { describe, expect, it } from 'vitest';
import { deepMerge } from '../../src/agents/cli-common.js';
import { toToml } from '../../src/agents/codex.js';

describe('deepMerge', () => {
  it('merges objects recursively and replaces everything else', () => {
    const base = { a: 1, t: { x: 1, y: [1] }, keep: true };
    expect(deepMerge(base, { a: 2, t: { y: [2], z: 'n' } })).toEqual({ a: 2, t: { x: 1, y: [2], z: 'n' }, keep: true });
    expect(base.t).toEqual({ x: 1, y: [1] }); // inputs unchanged
  });
});

describe('toToml', () => {
  it('writes keys first, then one table per nested object, quoting odd keys and escaping strings', () => {
    const toml = toToml({
      model_provider: 'fake',
      retries: 0,
      on: false,
      list: ['a', 2],
      model_providers: { fake: { base_url: 'http://127.0.0.1:1/v1', 'odd key': 'say "hi"\n' } },
      features: { plugins: false },
      inline: { arr: [{ k: 'v' }] },
      skipped: null,
    });
    expect(toml).toBe(
      [
        'model_provider = "fake"',
        'retries = 0',
        'on = false',
        'list = ["a", 2]',
        '',
        '[model_providers.fake]',
        'base_url = "http://127.0.0.1:1/v1"',
        '"odd key" = "say \\"hi\\"\\n"',
        '',
        '[features]',
        'plugins = false',
        '',
        '[inline]',
        'arr = [{ k = "v" }]',
        '',
      ].join('\n'),
    );
  });

  it('refuses values TOML cannot hold', () => {
    expect(() => toToml({ n: Number.NaN })).toThrow(/TOML/);
  });
});
