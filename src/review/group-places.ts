// Where a group of findings is shown to be. When a member names several places (one problem
// repeated in several spots), the group is about every member's place: its shown member's places
// first, then each other member's place that is not in the same file within LINE_WINDOW of one
// already listed, nor in its hunk within HUNK_WINDOW (two reviewers anchoring one fix on two
// lines of a hunk is one place). A group without such a member keeps its shown member's one
// place, as it always did: two reviewers placing one bug a line apart is one place, not two.
import { MAX_LOCATIONS } from '../agents/envelope.js';
import { locationsOf } from './finding-places.js';
import { hasSeveralPlaces } from './places.js';
import { inOneHunkNear, near } from './similarity.js';
import type { DiffLines } from '../github/diff-lines.js';
import type { Finding, FindingLocation } from '../domain/findings.js';

/** The group's places, when a member has several; null when the shown member's own place is all. */
export function groupLocations(
  shown: Finding,
  members: readonly Finding[],
  hunks?: DiffLines,
): FindingLocation[] | null {
  if (!members.some(hasSeveralPlaces)) return null;
  const places = [...locationsOf(shown)];
  for (const m of members) {
    for (const p of locationsOf(m)) {
      const listed = (q: FindingLocation) => near(q, p) || inOneHunkNear(q, p, p.file, hunks);
      if (p.file !== null && !places.some((q) => q.file === p.file && listed(q))) places.push(p);
    }
  }
  return places.length > 1 ? places.slice(0, MAX_LOCATIONS) : null;
}
