// Types of bundle-licenses.mjs for the TypeScript that imports it (its unit test).
interface Metafile {
  inputs: Record<string, unknown>;
}
export function bundledPackageDirs(metafile: Metafile): string[];
export function licenceNotices(metafile: Metafile, root?: string): string;
