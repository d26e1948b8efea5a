// A grouped finding stands for several reviewers' reports, each with its own id. A fixer that
// answers with any member's id means the group: its answer is read with the group's ids, and a
// group named twice (by two of its members' ids) counts once, as the first answer gave it.
import type { FixResult } from '../agents/envelope.js';
import type { Finding } from '../domain/findings.js';

export function resolveAliases(result: FixResult, findings: readonly Finding[]): FixResult {
  const groupOf = new Map<string, string>();
  for (const f of findings) for (const alias of f.aliases ?? []) if (!groupOf.has(alias)) groupOf.set(alias, f.id);
  const grouped = new Set(groupOf.values());
  const seen = new Set<string>();
  const once = <T extends { findingId: string }>(items: readonly T[]): T[] =>
    items.flatMap((item) => {
      const findingId = groupOf.get(item.findingId) ?? item.findingId;
      // A group named again, by its id or another member's: the first answer stands.
      if (grouped.has(findingId) && seen.has(findingId)) return [];
      seen.add(findingId);
      return [{ ...item, findingId }];
    });
  const fixedIssues = once(result.fixedIssues);
  const rejectedIssues = once(result.rejectedIssues);
  const deferredIssues = once(result.deferredIssues);
  return { ...result, fixedIssues, rejectedIssues, deferredIssues, decisionIssues: once(result.decisionIssues) };
}
