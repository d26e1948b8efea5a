// Stable finding ids (SPEC §5): CAT-<first 8 hex of sha1(category|file|line|title)>,
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

export function categoryCode(category: string): string {
  const key = category.trim().toLowerCase();
  const known = CATEGORY_CODES[key];
  if (known) return known;
  const letters = key.replace(/[^a-z0-9]/g, '').slice(0, 5).toUpperCase();
  return letters || 'OTHER';
}

export function findingId(f: { category: string; file: string | null; line: number | null; title: string }): string {
  const material = `${f.category}|${f.file ?? ''}|${f.line ?? ''}|${f.title}`;
  const hex = createHash('sha1').update(material).digest('hex').slice(0, 8);
  return `${categoryCode(f.category)}-${hex}`;
}

export function threadFindingId(firstCommentId: string | number): string {
  return `THREAD-${firstCommentId}`;
}
