// Gemini CLI adapter against the real `gemini` binary (pinned in cli-versions.ts).
import { createGeminiAdapter } from '../../src/agents/gemini.js';
import { describeCliAdapter } from './cli-suite.js';
import { FAKE_MODEL_KEY, parentEnv } from './helpers.js';

describeCliAdapter({
  kind: 'gemini',
  model: 'gemini-2.5-pro',
  create: createGeminiAdapter,
  options: (fake, ws, bin, auth = true) => ({
    binPath: bin,
    baseEnv: parentEnv(ws, {
      GOOGLE_GEMINI_BASE_URL: fake.url,
      ...(auth ? { GEMINI_API_KEY: FAKE_MODEL_KEY } : {}),
      // Skips the self-relaunch with a bigger heap: about 0.75 s per run.
      GEMINI_CLI_NO_RELAUNCH: 'true',
    }),
  }),
  reportsModel: true,
  reportsCost: false,
  tools: {
    write: (file, content) => ({ name: 'write_file', input: { file_path: file, content } }),
    edit: (file, oldText, newText) => [
      {
        name: 'replace',
        input: { file_path: file, old_string: oldText, new_string: newText, instruction: 'fix the bug' },
      },
    ],
    shell: (command) => ({ name: 'run_shell_command', input: { command } }),
    read: (file) => ({ name: 'read_file', input: { file_path: file } }),
  },
  loosen: {
    tools: { allowed: ['write_file', 'replace', 'run_shell_command'] },
    general: { defaultApprovalMode: 'yolo' },
  },
  startupMs: 3500,
  offered: {
    readOnly: ['read_file', 'list_directory', 'glob', 'grep_search'],
    fixer: ['read_file', 'list_directory', 'glob', 'grep_search', 'replace', 'write_file', 'run_shell_command'],
  },
  // 32,200 before the unused tools and features were switched off.
  maxReviewerOwnChars: 25_000,
});
