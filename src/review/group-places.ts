// Where a group of findings is shown to be. When a member names several places (one problem
// repeated in several spots), the group is about every member's place: its shown member's places
// first, then each other member's place that is not in the same file within LINE_WINDOW of one
// already listed. A group without such a member keeps its shown member's one place, as it always
// did: two reviewers placing one bug a line apart is one place, not two.
import { MAX_LOCATIONS } from '../agents/envelope.js';
import { locationsOf } from './finding-places.js';
import { hasSeveralPlaces } from './places.js';
import { near } from './similarity.js';
import type { Finding, FindingLocation } from '../domain/findings.js';

/** The group's places, when a member has several; null when the shown member's own place is all. */
export function groupLocations(shown: Finding, members: readonly Finding[]): FindingLocation[] | null {
  if (!members.some(hasSeveralPlaces)) return null;
  const places = [...locationsOf(shown)];
  for (const m of members) {
    for (const p of locationsOf(m)) {
      if (p.file !== null && !places.some((q) => q.file === p.file && near(q, p))) places.push(p);
    }
  }
  return places.length > 1 ? places.slice(0, MAX_LOCATIONS) : null;
}
