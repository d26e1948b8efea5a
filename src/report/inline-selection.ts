// Quiet mode: which findings on the lines of the diff get an inline comment. Teams that find one
// comment per finding too loud keep the lower priorities (`inline-min-priority`) and anything past
// a cap per round (`inline-max-comments`) in the report only; the report says how many it kept back.
import { priorityRank, type Priority } from '../domain/priority.js';

export interface InlineQuiet {
  /** The least severe priority that still gets an inline comment (P3: all). */
  minPriority: Priority;
  /** Inline comments per round at most; null: no cap. */
  maxComments: number | null;
}

export const LOUD: InlineQuiet = { minPriority: 'P3', maxComments: null };

export interface HeldBack {
  /** Placeable findings below `minPriority`. */
  below: number;
  /** Placeable findings at or above it that the cap left out. */
  overCap: number;
}

/**
 * Splits the findings that could be placed on the diff: those at or above the priority, most
 * severe first (then the most reviewers, then the reviewers' order), up to the cap.
 */
export function selectInline<T extends { priority: Priority; reportedBy?: readonly string[] }>(
  placeable: readonly T[],
  quiet: InlineQuiet,
): { chosen: T[]; heldBack: HeldBack } {
  const limit = priorityRank(quiet.minPriority);
  const eligible = placeable
    .map((f, i) => ({ f, i }))
    .filter(({ f }) => priorityRank(f.priority) <= limit)
    .sort(
      (a, b) =>
        priorityRank(a.f.priority) - priorityRank(b.f.priority) ||
        (b.f.reportedBy?.length ?? 0) - (a.f.reportedBy?.length ?? 0) ||
        a.i - b.i,
    );
  const cap = quiet.maxComments ?? eligible.length;
  const chosen = eligible
    .slice(0, cap)
    .sort((a, b) => a.i - b.i)
    .map(({ f }) => f);
  const overCap = Math.max(0, eligible.length - cap);
  return { chosen, heldBack: { below: placeable.length - eligible.length, overCap } };
}
