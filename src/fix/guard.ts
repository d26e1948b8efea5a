// Paths a fix may never touch before it is pushed (SPEC §8).
export function forbiddenPaths(paths: string[]): string[] {
  return paths.filter((p) => {
    const n = p.replace(/\\/g, '/').replace(/^\.\//, '');
    return n.startsWith('.github/workflows/') || n === '.github/workflows' || n.startsWith('../') || n.startsWith('/') || n.split('/').includes('..');
  });
}
