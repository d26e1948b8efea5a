// The places a finding is about. Most findings have one: their own file and line. A problem the
// reviewer found repeated in several spots (the same bug copied into three parsers) has several,
// and then its own file and line are the first of them. Pure, and a leaf: grouping, the inline
// review and the reports all ask it.

export interface Place {
  file: string | null;
  line: number | null;
  endLine?: number | null;
}

/** Every place of `f`: its locations when it has several, else its own file and line. */
export function placesOf<P extends Place>(f: P & { locations?: readonly Place[] | null }): readonly Place[] {
  return f.locations && f.locations.length > 1 ? f.locations : [f];
}

/** Whether `f` is about more than one place. */
export function hasSeveralPlaces(f: { locations?: readonly Place[] | null }): boolean {
  return (f.locations?.length ?? 0) > 1;
}
