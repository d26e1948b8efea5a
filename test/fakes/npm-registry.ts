// A loopback npm registry serving one small stand-in package (a CLI that prints its name and
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

/** Serves `name@version` whose bin `bin` prints `stand-in <bin> <version>`. */
export async function startFakeNpmRegistry(name: string, version: string, bin: string): Promise<FakeNpmRegistry> {
  const work = mkdtempSync(path.join(tmpdir(), 'prl-npm-pkg-'));
  const src = path.join(work, 'src');
  mkdirSync(path.join(src, 'bin'), { recursive: true });
  // Over 64 KiB, so that install.ts does not take it for a postinstall stub (claude, opencode).
  writeFileSync(
    path.join(src, 'bin', 'cli.js'),
    `#!/bin/sh\necho stand-in ${bin} ${version}\n#${'x'.repeat(70_000)}\n`,
  );
  chmodSync(path.join(src, 'bin', 'cli.js'), 0o755);
  const manifestBase = { name, version, bin: { [bin]: 'bin/cli.js' } };
  writeFileSync(path.join(src, 'package.json'), JSON.stringify(manifestBase));
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: src, encoding: 'utf8' });
  const tgz = readFileSync(path.join(work, packed.trim().split('\n').at(-1)!));
  rmSync(work, { recursive: true, force: true });

  const requests: string[] = [];
  let url = '';
  const server = createServer((req, res) => {
    const wanted = decodeURIComponent(req.url ?? '/');
    requests.push(wanted);
    if (wanted === '/package.tgz')
      return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tgz);
    if (wanted !== `/${name}`)
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    const dist = {
      tarball: `${url}package.tgz`,
      shasum: createHash('sha1').update(tgz).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
    };
    const doc = { name, 'dist-tags': { latest: version }, versions: { [version]: { ...manifestBase, dist } } };
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
