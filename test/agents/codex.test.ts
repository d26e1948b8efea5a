// Codex CLI adapter against the real `codex` binary (pinned in cli-versions.ts).
import path from 'node:path';
import { createCodexAdapter } from '../../src/agents/codex.js';
import { describeCliAdapter } from './cli-suite.js';
import { codexFakeProvider, FAKE_MODEL_KEY, parentEnv } from './helpers.js';

const patch = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch\n`;

describeCliAdapter({
  kind: 'codex',
  // A slug from Codex's model catalog: unknown names get no apply_patch tool.
  model: 'gpt-5.5',
  create: createCodexAdapter,
  options: (fake, ws, bin, auth = true) => ({
    binPath: bin,
    baseEnv: parentEnv(ws, auth ? { FAKE_API_KEY: FAKE_MODEL_KEY } : {}),
    // What a user would put under `codex:` in agent-config to reach a gateway.
    agentConfig: {
      ...codexFakeProvider(fake.url),
      // Codex hides *TOKEN* variables from its shell by itself; turn that off so
      // the env test proves our own scrubbing, not Codex's.
      shell_environment_policy: { inherit: 'all', ignore_default_excludes: true },
    },
  }),
  reportsModel: true,
  reportsCost: false,
  tools: {
    write: (file, content, ws) => ({
      name: 'apply_patch',
      input: patch(
        `*** Add File: ${path.relative(ws.cwd, file)}\n${content
          .trimEnd()
          .split('\n')
          .map((l) => `+${l}`)
          .join('\n')}`,
      ),
    }),
    edit: (file, oldText, newText, ws) => [
      {
        name: 'apply_patch',
        input: patch(`*** Update File: ${path.relative(ws.cwd, file)}\n@@\n-${oldText}\n+${newText}`),
      },
    ],
    shell: (command) => ({ name: 'exec_command', input: { cmd: command } }),
    read: (file) => ({ name: 'exec_command', input: { cmd: `cat ${file}` } }),
  },
  loosen: { sandbox_mode: 'danger-full-access', approval_policy: 'never' },
  startupMs: 2000,
  // Codex offers apply_patch to every role; the read-only sandbox refuses its writes.
  offered: {
    readOnly: ['exec_command', 'write_stdin', 'apply_patch'],
    fixer: ['exec_command', 'write_stdin', 'apply_patch'],
  },
  // 35,900 before the unused tools and features were switched off.
  maxReviewerOwnChars: 25_000,
});
