// Request dispatch: read the body, apply scripted failures, find the route, record
// everything, answer in GitHub's format.
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DOCS, apiError, notFound } from './http.js';
import type { Ctx, Reply, Route } from './http.js';
import { graphqlRoutes } from './graphql.js';
import { actionRoutes } from './routes/actions.js';
import { checkRoutes } from './routes/checks.js';
import { commitRoutes } from './routes/commits.js';
import { issueRoutes } from './routes/issues.js';
import { pullRoutes } from './routes/pulls.js';
import { labelRoutes } from './routes/labels.js';
import { repoRoutes } from './routes/repos.js';
import { reviewRoutes } from './routes/reviews.js';
import { isRestWrite, restRefusal } from './token-access.js';
import type { FailureRule, RecordedRequest } from './types.js';

const ROUTES: Route[] = [
  ...repoRoutes,
  ...pullRoutes,
  ...reviewRoutes,
  ...issueRoutes,
  ...labelRoutes,
  ...checkRoutes,
  ...actionRoutes,
  ...commitRoutes,
  ...graphqlRoutes,
];

type CtxBase = Omit<Ctx, 'method' | 'path' | 'query' | 'headers' | 'body' | 'params'>;

export interface RouterDeps {
  base: () => CtxBase;
  failures: FailureRule[];
  record: (r: RecordedRequest) => void;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The first scripted failure matching this request, consumed once per use. */
function takeFailure(failures: FailureRule[], method: string, path: string): Reply | null {
  const i = failures.findIndex((f) => (!f.method || f.method.toUpperCase() === method) && f.path.test(path));
  if (i < 0) return null;
  const rule = failures[i]!;
  const left = (rule.times ?? 1) - 1;
  if (left <= 0) failures.splice(i, 1);
  else rule.times = left;
  const body = rule.body ?? apiError(rule.status, STATUS_CODES[rule.status] ?? 'Error').body;
  return { status: rule.status, headers: rule.headers ?? {}, body };
}

async function dispatch(ctx: Ctx): Promise<Reply> {
  for (const r of ROUTES) {
    if (r.method !== ctx.method) continue;
    const m = r.pattern.exec(ctx.path);
    if (!m) continue;
    ctx.params = Object.fromEntries(Object.entries(m.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]));
    const { owner, repo } = ctx.params;
    // Only the one configured repository exists.
    if (owner !== undefined && `${owner}/${repo}`.toLowerCase() !== ctx.state.fullName.toLowerCase()) return notFound();
    if (ctx.state.tokenReadOnly && isRestWrite(ctx.method, ctx.path)) return restRefusal(ctx.method, ctx.path);
    return r.handler(ctx);
  }
  return notFound(DOCS);
}

function send(res: ServerResponse, reply: Reply): void {
  const isText = typeof reply.body === 'string';
  const payload = reply.body === undefined ? '' : isText ? (reply.body as string) : JSON.stringify(reply.body);
  const headers: Record<string, string> = {
    'x-github-media-type': 'github.v3; format=json',
    'x-github-request-id': `FAKE:${Math.random().toString(16).slice(2, 10).toUpperCase()}`,
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4999',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    ...(reply.body !== undefined && !isText ? { 'content-type': 'application/json; charset=utf-8' } : {}),
    ...reply.headers,
  };
  res.writeHead(reply.status, headers);
  res.end(reply.status === 204 ? undefined : payload);
}

/** Keeps the scheme ("token", "Bearer") so tests can check how the client authenticated. */
function redact(value: string): string {
  const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
  return scheme ? `${scheme} [REDACTED]` : '[REDACTED]';
}

export function createHandler(deps: RouterDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void (async () => {
      const receivedAt = Date.now();
      const url = new URL(req.url ?? '/', 'http://fake.invalid');
      const method = (req.method ?? 'GET').toUpperCase();
      const headers = headersOf(req);
      const body = await readBody(req);
      const ctx: Ctx = {
        ...deps.base(),
        method,
        path: url.pathname,
        query: url.searchParams,
        headers,
        body,
        params: {},
      };
      let reply: Reply;
      try {
        reply = takeFailure(deps.failures, method, url.pathname) ?? (await dispatch(ctx));
      } catch (e) {
        // A bug in the fake or a broken git repo: say so loudly instead of hanging the client.
        reply = apiError(500, `fake GitHub internal error: ${e instanceof Error ? e.message : String(e)}`);
      }
      const recordedHeaders = { ...headers };
      if (recordedHeaders.authorization) recordedHeaders.authorization = redact(recordedHeaders.authorization);
      deps.record({
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: recordedHeaders,
        body,
        status: reply.status,
        receivedAt,
      });
      send(res, reply);
    })();
  };
}
