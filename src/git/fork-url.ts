// Where a fix for a fork PR is pushed: the fork's repository on the same server as origin.
// Its URL is origin's URL with the base repository's owner/name replaced by the fork's,
// so the action's authentication (scoped to the server URL) applies and nothing else does.
import type { Git } from './runner.js';

export function deriveForkUrl(originUrl: string, baseFullName: string, headFullName: string): string | null {
  if (!/^[\w.-]+\/[\w.-]+$/.test(headFullName)) return null;
  const escaped = baseFullName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`^(.*[/:])${escaped}(\\.git)?/?$`, 'i').exec(originUrl.trim());
  if (!m) return null;
  return `${m[1]}${headFullName}.git`;
}

export async function originUrl(git: Git): Promise<string> {
  return (await git(['remote', 'get-url', 'origin'])).stdout.trim();
}
