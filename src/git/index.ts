// The git layer: every git process the action starts goes through runner.ts.
export { createGit, GitError, subcommandOf } from './runner.js';
export type { Git } from './runner.js';
export { currentBranch, headSha, isWorkTree, statusPorcelain } from './state.js';
export { ensureAtPrHead, PrMovedError } from './checkout.js';
export { stripPersistedCredentials } from './credentials.js';
export { BOT_EMAIL, BOT_NAME, ensureIdentity } from './identity.js';
export { commitAll, commitMessage, squashSince } from './commit.js';
export { hasTrailer, parseTrailers } from './trailers.js';
export { changedPathsInCommit } from './changes.js';
export { pushHead, remoteBranchSha } from './push.js';
export { AGENT_CONFIG_PATHS, restoreAgentConfigFromBase } from './agent-config.js';
