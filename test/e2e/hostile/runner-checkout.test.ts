// A checkout shaped like the one a GitHub-hosted runner gives the action: actions/checkout with
// its defaults persisted the token in .git/config and, with `submodules: true`, in the
// submodule's own config (.git/modules/<name>/config, 0644); an earlier step (e.g.
// google-github-actions/auth) left a 0600 credentials file in the checkout, ignored by git; a
// second checkout's credentials file lies in RUNNER_TEMP (0644). A hostile verify command and
// hook read every file they can reach in the checkout and in RUNNER_TEMP. They find no secret,
// and the loop still reviews, fixes, verifies and pushes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TOKEN, type World } from '../harness.js';
import { HUNTER, huntingWorld } from '../hunter.js';
import { PRIVILEGE_PATHS } from '../runner-user.js';
import { PLANTED_BUG_RULES } from '../scenarios.js';

const PERSISTED = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
const OIDC = 'oidc-request-bearer-token-0f9e8d7c6b5a';
const SECOND_CHECKOUT = 'ghs_secondCheckoutToken0123456789abcdef';

interface Hunt {
  role: string;
  filesWithToken: string[];
  filesSeen: number;
}

let world: World;
let huntLog: string;
let needlesFile: string;
let runnerTemp: string;

let hunts: () => Hunt[];

beforeEach(async () => {
  const w = await huntingWorld([TOKEN, PERSISTED, OIDC, SECOND_CHECKOUT]);
  ({ world, huntLog, needlesFile } = w);
  hunts = () => w.hunts<Hunt>();
  // The harness's RUNNER_TEMP for the world's first run, made early to hold the second checkout's file.
  runnerTemp = path.join(world.dir, 'run-1');
});
afterEach(async () => {
  await world.close();
});

it.each(PRIVILEGE_PATHS)(
  'leaves no credential of the checkout, its submodules, an earlier step or RUNNER_TEMP in reach, $how',
  async ({ asRunnerUser }) => {
    const r = await world.run({
      asRunnerUser,
      rules: PLANTED_BUG_RULES,
      inputs: {
        'verify-env': 'HUNTER_LOG,HUNTER_NEEDLES_FILE,HUNTER_LOOK_IN',
        verify: `node ${HUNTER} verify\nnpm test`,
      },
      extraEnv: { HUNTER_LOG: huntLog, HUNTER_NEEDLES_FILE: needlesFile, HUNTER_LOOK_IN: runnerTemp },
      prepare: async (checkout) => {
        const header = ['http.https://github.com/.extraheader', `AUTHORIZATION: basic ${PERSISTED}`];
        await checkout.git(['config', '--local', ...header]);
        const moduleConfig = path.join(checkout.dir, '.git', 'modules', 'lib', 'config');
        mkdirSync(path.dirname(moduleConfig), { recursive: true });
        writeFileSync(moduleConfig, '[core]\n\tbare = false\n', { mode: 0o644 });
        await checkout.git(['config', '--file', moduleConfig, ...header]);
        // The earlier step's files are ignored by the project (else the checkout would be dirty).
        await appendFile(path.join(checkout.dir, '.git', 'info', 'exclude'), 'gha-creds-*.json\n');
        writeFileSync(path.join(checkout.dir, 'gha-creds-5f2a.json'), `{"token":"${OIDC}"}\n`, { mode: 0o600 });
        mkdirSync(runnerTemp, { recursive: true, mode: 0o755 });
        writeFileSync(
          path.join(runnerTemp, 'git-credentials-7d1e.config'),
          `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${SECOND_CHECKOUT}\n`,
          { mode: 0o644 },
        );
      },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.status).toBe('converged');

    const all = hunts();
    expect(new Set(all.map((h) => h.role))).toEqual(new Set(['hook', 'verify']));
    for (const h of all) {
      // It really looked: the checkout's files were in reach.
      expect(h.filesSeen, h.role).toBeGreaterThan(3);
      expect(h.filesWithToken, h.role).toEqual([]);
    }
    // The log says what was removed and what was left as it was.
    expect(r.stdout).toContain('modules/lib/config');
    expect(r.stdout).toMatch(/untracked entries were in the checkout before the run[^\n]*gha-creds-5f2a\.json/);
    // The product still did its job: the fix was pushed.
    const log = await world.headLog();
    expect(log[0]!.body).toContain('Review-Loop-Round: 1');
  },
);
