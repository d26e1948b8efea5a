// The change since the head a reviewer last saw: the diff and the commits between
// the last reviewed head and the current one, so a later round reviews the delta and checks the
// fixes instead of reading the whole PR as if new. Only when the old head is an ancestor of the
// new one in this checkout: after a force push the history is not a delta any more.
import type { Delta } from '../domain/pull-request.js';
import type { Git } from './runner.js';

const MAX_COMMITS = 100;

export async function readDelta(git: Git, fromSha: string, toSha: string, maxChars: number): Promise<Delta | null> {
  if (fromSha === toSha) return null;
  const ancestor = await git(['merge-base', '--is-ancestor', fromSha, toSha], { allowFail: true });
  if (ancestor.code !== 0) return null;
  const diff = await git(['diff', '--no-ext-diff', '--no-textconv', '--no-color', fromSha, toSha]);
  const range = `${fromSha}..${toSha}`;
  const log = await git(['log', '--no-color', `--max-count=${MAX_COMMITS}`, '--format=%H%x1f%s', range]);
  const commits = log.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha = '', subject = ''] = line.split('\x1f');
      return { sha, subject };
    });
  const truncated = diff.stdout.length > maxChars;
  const patch = truncated ? `${diff.stdout.slice(0, diff.stdout.lastIndexOf('\n', maxChars) + 1)}` : diff.stdout;
  return { fromSha, toSha, patch, truncated, commits };
}
