// Stable finding ids: CAT-<first 8 hex of sha1(category|file|line|title)>,
// THREAD-<firstCommentId> for review threads. The action computes them; agents' ids are ignored.
import { createHash } from 'node:crypto';

const CATEGORY_CODES: Record<string, string> = {
  security: 'SEC',
  performance: 'PERF',
  quality: 'QUAL',
  correctness: 'BUG',
  bug: 'BUG',
  architecture: 'ARCH',
  testing: 'TEST',
  tests: 'TEST',
  docs: 'DOCS',
  documentation: 'DOCS',
  other: 'OTHER',
};

const codes = new Map<string, string>();

/** The category's code; remembered, since grouping asks it of the same few categories many times. */
export function categoryCode(category: string): string {
  let code = codes.get(category);
  if (code === undefined) {
    const key = category.trim().toLowerCase();
    code =
      CATEGORY_CODES[key] ??
      (key
        .replace(/[^a-z0-9]/g, '')
        .slice(0, 5)
        .toUpperCase() ||
        'OTHER');
    if (codes.size < 1000) codes.set(category, code);
  }
  return code;
}

export function findingId(f: { category: string; file: string | null; line: number | null; title: string }): string {
  const material = `${f.category}|${f.file ?? ''}|${f.line ?? ''}|${f.title}`;
  const hex = createHash('sha1').update(material).digest('hex').slice(0, 8);
  return `${categoryCode(f.category)}-${hex}`;
}

export function threadFindingId(firstCommentId: string | number): string {
  return `THREAD-${firstCommentId}`;
}
