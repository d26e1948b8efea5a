// The four priorities of a finding, most severe first. A leaf every layer shares:
// agents' answers carry them, review ranks and counts by them, reports list them.
export const PRIORITIES = ['P0', 'P1', 'P2', 'P3'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** Lower is more severe: P0 ranks 0. */
export const priorityRank = (p: Priority): number => PRIORITIES.indexOf(p);
