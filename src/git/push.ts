// The only way the action writes to the remote: a plain fast-forward push of
// one commit to one validated branch on origin. There is no force form here, by construction.
import { removeReplaceRefsAndGrafts } from './replace-refs.js';
import type { Git } from './runner.js';
import { checkBranchName } from './state.js';

export type PushResult = { ok: true } | { ok: false; rejected: boolean; message: string };

// Reasons git gives when the remote branch has commits we do not have.
const REMOTE_MOVED = /\b(non-fast-forward|fetch first|stale info)\b/;

/**
 * Pushes `sha` (default HEAD) to the branch. Callers pass the exact commit they checked:
 * a verify command or hook could move HEAD after the checks, and HEAD is not what was verified.
 */
export async function pushHead(git: Git, branch: string, sha = 'HEAD', remote = 'origin'): Promise<PushResult> {
  await checkBranchName(git, branch);
  if (sha !== 'HEAD' && !/^[0-9a-f]{40}$/.test(sha)) throw new Error(`not a full commit sha: ${JSON.stringify(sha)}`);
  // origin, or the URL of the PR's fork (git/fork-url.ts); never an option-like word.
  if (remote !== 'origin' && !/^(https?|file|ssh):\/\//.test(remote))
    throw new Error(`not a push target: ${JSON.stringify(remote)}`);
  // The push sends the real objects whatever replace refs say; with them gone, what the guard
  // was shown and what is pushed cannot differ for any tool reading the checkout afterwards.
  await removeReplaceRefsAndGrafts(git);
  const refspec = `${sha}:refs/heads/${branch}`;
  const r = await git(
    ['push', '--porcelain', '--no-verify', '--no-follow-tags', '--recurse-submodules=no', remote, refspec],
    { allowFail: true },
  );
  // --porcelain: one "<flag>\t<from>:<to>\t<summary>" line per ref; "!" means refused.
  const refused = r.stdout.split('\n').filter((l) => l.startsWith('!\t'));
  if (r.code === 0 && refused.length === 0) return { ok: true };
  const rejected = refused.some((l) => REMOTE_MOVED.test(l) && !l.includes('[remote rejected]'));
  const detail = [...refused.map((l) => l.split('\t').slice(1).join(' ')), r.stderr.trim()].filter(Boolean).join('\n');
  const message = rejected
    ? `push to ${branch} rejected: the branch moved on origin since the round started\n${detail}`
    : `push to ${branch} failed (exit ${r.code})\n${detail}`;
  return { ok: false, rejected, message };
}

/** The sha origin has for refs/heads/<branch>, or null when the branch does not exist. */
export async function remoteBranchSha(git: Git, branch: string): Promise<string | null> {
  await checkBranchName(git, branch);
  const ref = `refs/heads/${branch}`;
  const r = await git(['ls-remote', 'origin', ref]);
  for (const line of r.stdout.split('\n')) {
    const [sha, name] = line.split('\t');
    if (name === ref && sha) return sha;
  }
  return null;
}
