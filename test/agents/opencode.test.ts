// OpenCode adapter against the real `opencode` binary (pinned in cli-versions.ts).
import { createOpencodeAdapter } from '../../src/agents/opencode.js';
import { describeCliAdapter } from './cli-suite.js';
import { FAKE_MODEL_KEY, parentEnv } from './helpers.js';

describeCliAdapter({
  kind: 'opencode',
  // OpenCode models are `<provider>/<model>`, declared under `provider` in its config.
  model: 'fake/fake-model',
  create: createOpencodeAdapter,
  options: (fake, ws, bin, auth = true) => ({
    binPath: bin,
    baseEnv: parentEnv(ws, auth ? { FAKE_API_KEY: FAKE_MODEL_KEY } : {}),
    // What a user would put under `opencode:` in agent-config to reach a gateway.
    agentConfig: {
      provider: {
        fake: {
          npm: '@ai-sdk/openai-compatible',
          name: 'Fake',
          options: { baseURL: `${fake.url}/v1`, apiKey: '{env:FAKE_API_KEY}' },
          models: { 'fake-model': { name: 'Fake Model' } },
        },
      },
    },
  }),
  reportsModel: false,
  reportsCost: false,
  tools: {
    write: (file, content) => ({ name: 'write', input: { filePath: file, content } }),
    // OpenCode's edit also wants the file read first in the session.
    edit: (file, oldText, newText) => [
      { name: 'read', input: { filePath: file } },
      { name: 'edit', input: { filePath: file, oldString: oldText, newString: newText } },
    ],
    shell: (command) => ({ name: 'bash', input: { command, description: 'run a command' } }),
    read: (file) => ({ name: 'read', input: { filePath: file } }),
  },
  loosen: { permission: { edit: 'allow', bash: 'allow' } },
  startupMs: 5000,
  offered: { readOnly: ['read', 'grep', 'glob'], fixer: ['read', 'grep', 'glob', 'edit', 'write', 'bash'] },
  // 21,000 before the unused tools and features were switched off.
  maxReviewerOwnChars: 15_000,
});
