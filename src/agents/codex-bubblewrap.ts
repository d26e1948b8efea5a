// Which bubblewrap Codex sandboxes its commands with. Codex 0.169.0 takes the first `bwrap` on PATH
// (outside the working folder) when its --help lists --perms, and only when there is none the one
// its npm package ships (codex-resources/bwrap). A PATH bwrap older than 0.9.0 has no --argv0; Codex
// then starts its sandbox helper by the bare name `codex-linux-sandbox`, which bubblewrap looks up on
// PATH inside the sandbox, where no such name is (Codex makes that alias only outside temporary
// folders): every shell command of the model fails with "bwrap: execvp codex-linux-sandbox: No such
// file or directory" (Debian 12 and Ubuntu 22.04 ship 0.8.0 and 0.6.1). So the folder of the
// shipped bwrap goes first on the CLI's PATH: Codex then finds its own bubblewrap whatever the runner
// has installed, the one it runs where none is installed, and keeps its read-only and no-network
// sandbox of the model's commands.
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Codex's platform package and the Rust target its binaries are built for, by Node's arch. */
const TARGETS: Readonly<Record<string, { pkg: string; triple: string }>> = {
  x64: { pkg: 'codex-linux-x64', triple: 'x86_64-unknown-linux-musl' },
  arm64: { pkg: 'codex-linux-arm64', triple: 'aarch64-unknown-linux-musl' },
};

/**
 * The folder that holds the `bwrap` Codex ships, for the Codex at `bin` (its npm launcher, or a
 * link to it), or null when there is none (not Linux, another layout).
 */
export function codexBubblewrapFolder(bin: string, arch: string = process.arch): string | null {
  const target = TARGETS[arch];
  if (process.platform !== 'linux' || !target || !existsSync(bin)) return null;
  // bin/codex.js in @openai/codex; its platform package sits beside it, or below it when nested.
  const pkgRoot = path.dirname(path.dirname(realpathSync(bin)));
  const candidates = [path.join(pkgRoot, '..', target.pkg), path.join(pkgRoot, 'node_modules', '@openai', target.pkg)];
  for (const dir of candidates) {
    const resources = path.join(dir, 'vendor', target.triple, 'codex-resources');
    const bwrap = path.join(resources, 'bwrap');
    if (existsSync(bwrap) && statSync(bwrap).isFile() && (statSync(bwrap).mode & 0o111) !== 0) return resources;
  }
  return null;
}

/** `env` with the folder of Codex's own bwrap first on PATH, when there is one. */
export function withCodexBubblewrap(env: NodeJS.ProcessEnv, folder: string | null): NodeJS.ProcessEnv {
  if (!folder) return env;
  return { ...env, PATH: env.PATH ? `${folder}${path.delimiter}${env.PATH}` : folder };
}
