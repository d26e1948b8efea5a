// A reviewer that reports an earlier finding again gives that finding's id (from
// earlier-findings.json), so the finding keeps its id when only part of it is left (a narrower
// title, a lower priority) or its code moved: its thread, its fate and the stuck check follow it.
// An echoed id is taken only when it names a finding of the last review that is about the same
// file (one of its places, renames followed), and never one a person dismissed: a dismissed id on
// a new problem would hide that problem under the dismissal, so dismissals keep matching by their
// own rules (dismissals.ts). Any other id an agent writes is ignored, as before. Pure.
import type { Finding } from '../domain/findings.js';
import type { EarlierFinding } from './earlier.js';

export interface EchoRules {
  earlier: readonly EarlierFinding[];
  /** Ids of the findings people dismissed (and their aliases). */
  dismissed: ReadonlySet<string>;
  renames?: ReadonlyMap<string, string>;
}

/** `f` under the earlier id it echoes, when that id may be taken; else `f` as it is. */
export function withEchoedId(f: Finding, echoed: string | undefined, rules: EchoRules): Finding {
  const id = echoed?.trim();
  if (!id || id === f.id || rules.dismissed.has(id)) return f;
  const before = rules.earlier.find((e) => e.id === id);
  if (!before) return f;
  const follow = (file: string | null) => (file && rules.renames?.get(file)) ?? file;
  const files = new Set([before.file, ...(before.locations ?? []).map((p) => p.file)].map(follow));
  return files.has(follow(f.file)) ? { ...f, id } : f;
}
