// The git layer: every git process the action starts goes through runner.ts.
export { createGit, GitError, subcommandOf } from './runner.js';
export type { Git, GitAuth, GitCallOptions, GitResult } from './runner.js';
export {
  checkBranchName,
  currentBranch,
  headSha,
  isShallow,
  isWorkTree,
  resolveCommit,
  statusPorcelain,
} from './state.js';
export { ensureAtPrHead, PrMovedError } from './checkout.js';
export type { PrHead } from './checkout.js';
export { stripPersistedCredentials } from './credentials.js';
export { BOT_EMAIL, BOT_NAME, ensureIdentity } from './identity.js';
export { commitAll, commitMessage, literalPathspec, squashSince } from './commit.js';
export type { CommitOptions } from './commit.js';
export { hasTrailer, parseTrailers } from './trailers.js';
export type { Trailer } from './trailers.js';
export { changedPathsInCommit } from './changes.js';
export type { ChangedPaths } from './changes.js';
export { removeReplaceRefsAndGrafts } from './replace-refs.js';
export { pushHead, remoteBranchSha } from './push.js';
export type { PushResult } from './push.js';
export { AGENT_CONFIG_PATHS, restoreAgentConfigFromBase } from './agent-config.js';
