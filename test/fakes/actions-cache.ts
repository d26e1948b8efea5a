// A stand-in for the Actions cache service on 127.0.0.1, speaking what the official client
// (@actions/cache) sends when ACTIONS_CACHE_SERVICE_V2 is set:
// - the Twirp JSON API at <ACTIONS_RESULTS_URL>/twirp/github.actions.results.api.v1.CacheService/<method>
//   (GetCacheEntryDownloadURL, CreateCacheEntry, FinalizeCacheEntryUpload), with the job's runtime
//   token as a bearer token;
// - the blob storage the signed URLs point at: an upload through the Azure blob client (one
//   "Put Blob", or "Put Block" + "Put Block List" above its single-shot size) and a plain GET
//   download (the client uses the Azure client only for hosts under blob.core.windows.net).
// It keeps the service's rules the action relies on: an entry is found by exact key and version
// (a restore key by prefix), is visible only once finalized, and cannot be created twice: a second
// CreateCacheEntry for the same key and version is refused. It can be told to fail: every call
// with a status (500: the service is down), Twirp calls with 429 (rate limit), or writes denied.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const TWIRP = '/twirp/github.actions.results.api.v1.CacheService/';
/** Account and container, as the Azure blob client reads them from a URL on an IP address. */
const BLOBS = '/devstoreaccount1/caches/';

interface Entry {
  key: string;
  version: string;
  blob: string;
  finalized: boolean;
  createdAt: number;
}

export interface FakeActionsCache {
  url: string;
  /** The variables the runner gives a JavaScript action for the v2 cache service. */
  env: Record<string, string>;
  /** Method name of every Twirp call, and `PUT blob` / `GET blob`, in order. */
  calls: string[];
  /** Finalized entries by key. */
  keys(): string[];
  /** Every later request is answered with this status (500: down), or served again (null). */
  failWith(status: number | null): void;
  /** Twirp calls answer 429 Too Many Requests with Retry-After. */
  rateLimit(on: boolean): void;
  /** CreateCacheEntry is refused as for a token with a read-only cache scope. */
  denyWrites(on: boolean): void;
  /** Replaces the stored bytes of a finalized entry (a damaged download). */
  corrupt(key: string, bytes: Buffer): void;
  close(): Promise<void>;
}

export async function startFakeActionsCache(token = 'fake-runtime-token'): Promise<FakeActionsCache> {
  const entries: Entry[] = [];
  const blobs = new Map<string, Buffer>();
  const blocks = new Map<string, Map<string, Buffer>>();
  const calls: string[] = [];
  let failStatus: number | null = null;
  let limited = false;
  let writesDenied = false;
  let url = '';

  const server: Server = createServer((req, res) => {
    void body(req).then((data) => {
      const u = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (failStatus !== null) {
        calls.push(u.pathname.startsWith(TWIRP) ? u.pathname.slice(TWIRP.length) : `${req.method} blob`);
        return send(res, failStatus, { code: 'internal', msg: 'the service is unavailable' });
      }
      if (u.pathname.startsWith(TWIRP) && req.method === 'POST')
        return twirp(req, res, u.pathname.slice(TWIRP.length), data);
      if (u.pathname.startsWith(BLOBS)) return blob(req, res, u, data);
      send(res, 404, { code: 'not_found', msg: `no route ${req.method} ${u.pathname}` });
    });
  });

  function twirp(req: IncomingMessage, res: ServerResponse, method: string, data: Buffer): void {
    calls.push(method);
    if (req.headers.authorization !== `Bearer ${token}`)
      return send(res, 401, { code: 'unauthenticated', msg: 'bad token' });
    if (limited) {
      res.setHeader('retry-after', '60');
      return send(res, 429, { code: 'resource_exhausted', msg: 'rate limited' });
    }
    const request = JSON.parse(data.toString('utf8') || '{}') as Record<string, unknown>;
    const key = String(request.key ?? '');
    const version = String(request.version ?? '');
    if (method === 'GetCacheEntryDownloadURL') {
      const restoreKeys = (request.restore_keys as string[] | undefined) ?? [];
      const done = entries.filter((e) => e.finalized && e.version === version);
      const found =
        done.find((e) => e.key === key) ??
        restoreKeys
          .map((k) => done.filter((e) => e.key.startsWith(k)).sort((a, b) => b.createdAt - a.createdAt)[0])
          .find((e) => e);
      if (!found) return send(res, 200, { ok: false });
      return send(res, 200, {
        ok: true,
        signedDownloadUrl: `${url}${BLOBS}${found.blob}?sig=read`,
        matchedKey: found.key,
      });
    }
    if (method === 'CreateCacheEntry') {
      if (writesDenied)
        return send(res, 200, { ok: false, message: 'cache write denied: the token has no writable cache scope' });
      if (entries.some((e) => e.key === key && e.version === version)) {
        return send(res, 409, {
          code: 'already_exists',
          msg: 'cache entry with the same key, version, and scope already exists',
        });
      }
      const entry: Entry = { key, version, blob: randomUUID(), finalized: false, createdAt: entries.length };
      entries.push(entry);
      return send(res, 200, { ok: true, signedUploadUrl: `${url}${BLOBS}${entry.blob}?sig=write` });
    }
    if (method === 'FinalizeCacheEntryUpload') {
      const entry = entries.find((e) => e.key === key && e.version === version && !e.finalized);
      const stored = entry && blobs.get(entry.blob);
      if (!entry || !stored) return send(res, 404, { code: 'not_found', msg: 'no upload to finalize' });
      if (String(stored.length) !== String(request.size_bytes)) {
        return send(res, 400, {
          code: 'invalid_argument',
          msg: `size ${String(request.size_bytes)} != ${stored.length}`,
        });
      }
      entry.finalized = true;
      return send(res, 200, { ok: true, entryId: String(entries.indexOf(entry) + 1) });
    }
    send(res, 404, { code: 'bad_route', msg: `no method ${method}` });
  }

  function blob(req: IncomingMessage, res: ServerResponse, u: URL, data: Buffer): void {
    const id = u.pathname.slice(BLOBS.length);
    const entry = entries.find((e) => e.blob === id);
    calls.push(`${req.method} blob`);
    if (!entry) return void res.writeHead(404).end();
    if (req.method === 'GET' || req.method === 'HEAD') {
      const stored = blobs.get(id);
      if (!entry.finalized || !stored || u.searchParams.get('sig') !== 'read') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(stored.length) });
      return void res.end(req.method === 'GET' ? stored : undefined);
    }
    if (req.method !== 'PUT' || entry.finalized || u.searchParams.get('sig') !== 'write') {
      return void res.writeHead(403).end();
    }
    const comp = u.searchParams.get('comp');
    const staged = blocks.get(id) ?? new Map<string, Buffer>();
    blocks.set(id, staged);
    if (comp === 'block') staged.set(u.searchParams.get('blockid') ?? '', data);
    else if (comp === 'blocklist') {
      const ids = [...data.toString('utf8').matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)</g)].map((m) => m[1]!);
      if (ids.some((b) => !staged.has(b))) return void res.writeHead(400).end();
      blobs.set(id, Buffer.concat(ids.map((b) => staged.get(b)!)));
    } else if (req.headers['x-ms-blob-type'] === 'BlockBlob') blobs.set(id, data);
    else return void res.writeHead(400).end();
    res
      .writeHead(201, {
        etag: `"${randomUUID()}"`,
        'last-modified': new Date().toUTCString(),
        'x-ms-request-id': randomUUID(),
        'x-ms-version': '2025-01-05',
        'x-ms-request-server-encrypted': 'true',
      })
      .end();
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { ACTIONS_RESULTS_URL: `${url}/`, ACTIONS_RUNTIME_TOKEN: token, ACTIONS_CACHE_SERVICE_V2: 'true' },
    calls,
    keys: () => entries.filter((e) => e.finalized).map((e) => e.key),
    failWith: (status) => void (failStatus = status),
    rateLimit: (on) => void (limited = on),
    denyWrites: (on) => void (writesDenied = on),
    corrupt(key, bytes) {
      const entry = entries.find((e) => e.key === key && e.finalized);
      if (!entry) throw new Error(`no entry ${key}`);
      blobs.set(entry.blob, bytes);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

function send(res: ServerResponse, status: number, json: object): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
}
