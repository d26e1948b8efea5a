// Replace refs and grafts make git show one history and tree while `git push` sends another
// (git-replace(1): replacements serve "all Git commands except those doing reachability
// traversal (prune, pack transfer and fsck)"; gitrepository-layout(5) info/grafts). The runner
// already tells every command to ignore both (isolation.ts); this removes them as well, a step of
// its own: before a fix's verify and before the push guard (fix/fix-round.ts) and before the push
// (push.ts), so no later tool and no other git version reads them either.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Git } from './runner.js';

/** Deletes every refs/replace/* ref (loose or packed) and the graft file; returns what it removed. */
export async function removeReplaceRefsAndGrafts(git: Git): Promise<string[]> {
  const refs = (await git(['for-each-ref', '--format=%(refname)', 'refs/replace/'])).stdout.split('\n').filter(Boolean);
  // git-update-ref(1) --stdin: "delete SP <ref> LF"; ref names hold no spaces or newlines.
  const deletes = refs.map((r) => `delete ${r}\n`).join('');
  if (refs.length) await git(['update-ref', '--no-deref', '--stdin'], { input: deletes });
  const common = (await git(['rev-parse', '--path-format=absolute', '--git-common-dir'])).stdout.trim();
  // Loose files for-each-ref skipped (a name git-check-ref-format(1) refuses) go with the folder.
  await rm(path.join(common, 'refs', 'replace'), { recursive: true, force: true });
  const grafts = path.join(common, 'info', 'grafts');
  const hadGrafts = await rm(grafts).then(
    () => true,
    (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? false : Promise.reject(e)),
  );
  return hadGrafts ? [...refs, grafts] : refs;
}
