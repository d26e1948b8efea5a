// Smart-HTTP git on 127.0.0.1: `git http-backend` behind a Node server that demands
// `Authorization: Basic base64(x-access-token:<token>)`, as GitHub does for the Actions token.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHttpServer {
  url: string;
  /** One line per request: "METHOD path auth=OK|BAD|none". */
  log: string[];
  close(): Promise<void>;
}

export async function startGitHttpServer(
  projectRoot: string,
  token: string,
  env: NodeJS.ProcessEnv,
): Promise<GitHttpServer> {
  const expected = Buffer.from(`x-access-token:${token}`).toString('base64');
  const log: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const [scheme, value] = (req.headers.authorization ?? '').split(' ');
    const ok = scheme?.toLowerCase() === 'basic' && value === expected;
    log.push(
      `${req.method} ${url.pathname}${url.search} auth=${req.headers.authorization ? (ok ? 'OK' : 'BAD') : 'none'}`,
    );
    if (!ok) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...env,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: 'x-access-token', // http-backend refuses receive-pack for anonymous users
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (c: Buffer) => chunks.push(c));
    cgi.on('close', () => {
      const buf = Buffer.concat(chunks);
      const end = buf.indexOf('\r\n\r\n');
      const headerText = buf.subarray(0, end).toString();
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of headerText.split('\r\n')) {
        const i = line.indexOf(':');
        const [k, v] = [line.slice(0, i).trim(), line.slice(i + 1).trim()];
        if (k.toLowerCase() === 'status') status = Number.parseInt(v, 10);
        else if (k) headers[k] = v;
      }
      res.writeHead(status, headers).end(buf.subarray(end + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
