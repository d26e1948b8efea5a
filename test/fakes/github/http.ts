// Route plumbing shared by the resource files: the request context, replies in GitHub's
// error shapes, and Link-header pagination.
import type { OriginRepo } from './git.js';
import type { PullDataSource } from './pull-data.js';
import type { Json, Urls } from './shapes.js';
import type { FakeState } from './state.js';

export interface Ctx {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Lower-cased request headers. */
  headers: Record<string, string>;
  body: unknown;
  params: Record<string, string>;
  state: FakeState;
  data: PullDataSource;
  origin: OriginRepo | null;
  urls: Urls;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Objects and arrays are sent as JSON, strings as they are, undefined as no body. */
  body?: unknown;
}

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

/** '/repos/:owner/:repo/contents/:path+' -> a regex with named groups (`+` spans slashes). */
export function route(method: string, template: string, handler: Handler): Route {
  const source = template.replace(
    /:(\w+)(\+?)/g,
    (_m, name: string, plus: string) => `(?<${name}>${plus ? '.+' : '[^/]+'})`,
  );
  return { method, pattern: new RegExp(`^${source}/?$`), handler };
}

export const DOCS = 'https://docs.github.com/rest';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, body, headers };
}

export function apiError(status: number, message: string, documentationUrl = DOCS, extra: Json = {}): Reply {
  return json(status, { message, documentation_url: documentationUrl, status: String(status), ...extra });
}

export const notFound = (documentationUrl = DOCS): Reply => apiError(404, 'Not Found', documentationUrl);

/** GitHub's answer to a body that does not match the endpoint's input schema. */
export function invalidRequest(detail: string, documentationUrl: string): Reply {
  return apiError(422, `Invalid request.\n\n${detail}`, documentationUrl);
}

export function validationFailed(errors: Json[], documentationUrl: string): Reply {
  return apiError(422, 'Validation Failed', documentationUrl, { errors });
}

/** PR or issue number from the path, or null when it is not a positive integer. */
export function numberParam(ctx: Ctx, name = 'number'): number | null {
  const n = Number(ctx.params[name]);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * One page of a list, with the Link header GitHub sends (`per_page` default 30, max
 * 100). Octokit's paginate follows rel="next" as an absolute URL, so it must be ours.
 */
export function paginate<T>(ctx: Ctx, items: T[]): Reply {
  const perPage = Math.min(Math.max(Number(ctx.query.get('per_page')) || 30, 1), 100);
  const page = Math.max(Number(ctx.query.get('page')) || 1, 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const link = (p: number, rel: string): string => {
    const q = new URLSearchParams(ctx.query);
    q.set('per_page', String(perPage));
    q.set('page', String(p));
    return `<${ctx.urls.api}${ctx.path}?${q.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'));
  const headers: Record<string, string> = links.length ? { link: links.join(', ') } : {};
  return json(200, items.slice((page - 1) * perPage, page * perPage), headers);
}
