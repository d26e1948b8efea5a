// A loopback npm registry serving small stand-in packages (each a CLI that prints its name and
// version), so that a real `npm install` runs offline and fast. `requests` counts what npm asked.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface FakeNpmRegistry {
  /** The registry URL, with the trailing slash npm wants. */
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** A package the registry serves: `name@version`, whose executable `bin/<bin>` is linked as `bin`. */
export interface StandInPackage {
  name: string;
  version: string;
  bin: string;
}

/** Serves `name@version` whose bin `bin` prints `stand-in <bin> <version>`. */
export function startFakeNpmRegistry(name: string, version: string, bin: string): Promise<FakeNpmRegistry> {
  return startFakeNpmRegistryOf([{ name, version, bin }]);
}

interface Packed {
  manifest: Record<string, unknown>;
  tgz: Buffer;
}

/**
 * A stand-in's tarball, laid out as `npm pack` makes one (a `package/` folder; tar rather than npm
 * pack, which takes a second to start). Its one file is over 64 KiB, so install.ts never takes it
 * for a postinstall stub (claude, opencode).
 */
function pack({ name, version, bin }: StandInPackage, work: string): Packed {
  const dir = path.join(work, createHash('sha1').update(name).digest('hex'));
  const src = path.join(dir, 'package');
  mkdirSync(path.join(src, 'bin'), { recursive: true });
  const file = path.join(src, 'bin', bin);
  writeFileSync(file, `#!/bin/sh\necho stand-in ${bin} ${version}\n#${'x'.repeat(70_000)}\n`);
  chmodSync(file, 0o755);
  const manifest = { name, version, bin: { [bin]: `bin/${bin}` } };
  writeFileSync(path.join(src, 'package.json'), JSON.stringify(manifest));
  execFileSync('tar', ['-czf', path.join(dir, 'package.tgz'), '-C', dir, 'package']);
  return { manifest, tgz: readFileSync(path.join(dir, 'package.tgz')) };
}

/** Serves every package of `packages`, each at its one version (also its `latest`). */
export async function startFakeNpmRegistryOf(packages: readonly StandInPackage[]): Promise<FakeNpmRegistry> {
  const work = mkdtempSync(path.join(tmpdir(), 'prl-npm-pkg-'));
  const served = new Map<string, Packed>();
  try {
    for (const p of packages) served.set(p.name, pack(p, work));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const tarballs = [...served.keys()];

  const requests: string[] = [];
  let url = '';
  const server = createServer((req, res) => {
    const wanted = decodeURIComponent(req.url ?? '/');
    requests.push(wanted);
    const tarball = /^\/package-(\d+)\.tgz$/.exec(wanted);
    const byTarball = tarball ? served.get(tarballs[Number(tarball[1])] ?? '') : undefined;
    if (byTarball) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(byTarball.tgz);
    const found = served.get(wanted.slice(1));
    if (!found) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    const { manifest, tgz } = found;
    const dist = {
      tarball: `${url}package-${tarballs.indexOf(wanted.slice(1))}.tgz`,
      shasum: createHash('sha1').update(tgz).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
    };
    const version = String(manifest.version);
    const doc = {
      name: manifest.name,
      'dist-tags': { latest: version },
      versions: { [version]: { ...manifest, dist } },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
