// Phase one of a run (run.ts): the inputs, validated before anything else, and what startRun reads
// (prompts, the PR, who asked, the repo config, the token's identity, the PR's comments); then what
// every later phase reports through: the report context, the publisher and the budget.
import { createBudget, type Budget } from './budget/budget.js';
import { priceTable } from './budget/prices.js';
import type { Config } from './config/inputs.js';
import { deprecatedInputWarnings } from './config/deprecated-inputs.js';
import type { ActionIO } from './domain/io.js';
import { serverUrlFromEnv } from './github/client.js';
import { readConfig } from './preflight/checks.js';
import { startRun, type Started } from './preflight/start.js';
import { reportContext, type ReportContext } from './report/format.js';
import { createPublisher, type Publisher } from './report/publish.js';
import type { RunSecrets } from './security/run-secrets.js';
import { tokenForms } from './security/secret-env.js';

export interface BeginInput {
  env: NodeJS.ProcessEnv;
  /** Guarded (report/guarded-io.ts): redacted, workflow commands defused. */
  io: ActionIO;
  /** The values agentEnv drops; the token joins them here. */
  secrets: string[];
  runSecrets: RunSecrets;
  promptsUrl: URL;
  /** The API client's retry back-off base; Octokit's own when absent. */
  retryBaseMs?: number;
}

export interface Begun extends Started {
  /** The validated inputs (the token among them). */
  inputs: Config;
  reportCtx: ReportContext;
  publisher: Publisher;
  budget: Budget;
}

export async function begin(b: BeginInput): Promise<Begun> {
  const { env, io } = b;
  const log = (m: string) => io.info(m);
  // The token is a secret from here on.
  const { raw, config: inputs } = readConfig(env);
  b.secrets.push(inputs.githubToken);
  b.runSecrets.add(...tokenForms(inputs.githubToken));
  io.setSecret(inputs.githubToken);
  // setup-env's values (a registry token) are secrets like the token: redacted, and never committed.
  b.runSecrets.add(...inputs.setupEnv.flatMap((n) => (env[n] && env[n].length >= 8 ? [env[n]] : [])));
  for (const warning of deprecatedInputWarnings(raw, inputs)) io.warning(warning);
  const retry = b.retryBaseMs ? { retryBaseMs: b.retryBaseMs } : {};
  const started = await startRun({ env, raw, inputs, log, promptsUrl: b.promptsUrl, ...retry });
  const { config, octokit, repo, meta } = started;
  const reportCtx = reportContext(serverUrlFromEnv(env), env.GITHUB_RUN_ID, repo, meta.number, config);
  const { dryRun, maxTokens, maxCostUsd } = config;
  const publisher = createPublisher({ octokit, repo, prNumber: meta.number, dryRun, secrets: b.runSecrets, io });
  const limits = { ...(maxTokens ? { maxTokens } : {}), ...(maxCostUsd ? { maxCostUsd } : {}) };
  const budget = createBudget(limits, priceTable(config.modelPrices));
  return { ...started, inputs, reportCtx, publisher, budget };
}
