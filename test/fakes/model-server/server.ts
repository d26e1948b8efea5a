// A loopback fake LLM API speaking the four protocols the agent CLIs use. It
// routes by path suffix, so one server serves every CLI at once:
//   …/messages                         Anthropic Messages (Claude Code)
//   …/responses                        OpenAI Responses (Codex)
//   …/chat/completions                 Chat Completions (OpenCode, openai-compatible)
//   …/models/<m>:streamGenerateContent Gemini (Gemini CLI)
// Plain Node, no test-runner imports: the e2e test and the demo use it too.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync } from 'node:fs';
import { encodeReply } from './replies.js';
import { readModelRequest } from './requests.js';
import { pick } from './script.js';
import { createTokenCounter, measuredUsage, type RequestTokens } from './tokens.js';
import type { ModelRequest, Protocol, Reply, Script } from './script.js';

export interface RecordedRequest extends ModelRequest {
  reply: Reply;
  /** With `countTokens`: what the request sent, and how much of it an earlier one had sent. */
  tokens?: RequestTokens;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Every model request, in arrival order (HEAD probes and token counts are not recorded). */
  readonly requests: RecordedRequest[];
  /** Replaces the script; a list starts again from its first reply. */
  setScript(script: Script): void;
  close(): Promise<void>;
}

export interface FakeModelServerOptions {
  script?: Script;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Appends every recorded request as one JSON line, for debugging a CLI. */
  logFile?: string;
  /**
   * When set, a model request must carry this key (`authorization: Bearer`,
   * `x-api-key`, `x-goog-api-key` or `?key=`), else it gets a 401 like a real API.
   */
  apiKey?: string;
  /**
   * Counts the tokens of each request (tokens.ts) and reports them as the reply's usage
   * (unless the script gives one), so the CLIs and the action see what was really sent.
   */
  countTokens?: boolean;
}

function carriesKey(req: IncomingMessage, key: string): boolean {
  const h = req.headers;
  const query = new URL(req.url ?? '/', 'http://x').searchParams.get('key');
  return h.authorization === `Bearer ${key}` || h['x-api-key'] === key || h['x-goog-api-key'] === key || query === key;
}

interface Route {
  protocol: Protocol;
  streaming: boolean;
  urlModel?: string;
}

function routeOf(path: string): Route | 'count' | null {
  const gemini = /\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/.exec(path);
  if (gemini) {
    if (gemini[2] === 'countTokens') return 'count';
    return {
      protocol: 'gemini',
      streaming: gemini[2] === 'streamGenerateContent',
      urlModel: decodeURIComponent(gemini[1]!),
    };
  }
  if (path.endsWith('/messages/count_tokens')) return 'count';
  if (path.endsWith('/messages')) return { protocol: 'anthropic', streaming: true };
  if (path.endsWith('/responses')) return { protocol: 'responses', streaming: true };
  if (path.endsWith('/chat/completions')) return { protocol: 'chat', streaming: true };
  return null;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** What a reply says, as the model's output: its text, or its tool call. */
function replyText(reply: Reply): string {
  if ('text' in reply) return reply.text;
  if ('tool' in reply) return JSON.stringify(reply.tool);
  return '';
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function startFakeModelServer(opts: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  let script: Script = opts.script ?? [];
  let listIndex = 0;
  const requests: RecordedRequest[] = [];
  const counter = createTokenCounter();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const route = req.method === 'POST' ? routeOf(path) : null;
    if (route === null) {
      // Claude Code 2.1.197 sends `HEAD /` first; any answer will do.
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const body = await readBody(req);
    if (route === 'count') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":42,"totalTokens":42}');
      return;
    }
    const raw = {
      method: req.method ?? 'POST',
      url: req.url ?? path,
      headers: req.headers,
      body,
      urlModel: route.urlModel,
    };
    const modelReq = readModelRequest(route.protocol, raw, requests.length);
    const unauthorized = opts.apiKey !== undefined && !carriesKey(req, opts.apiKey);
    const picked: Reply = unauthorized
      ? { error: 401, message: 'invalid api key (fake model server)' }
      : pick(script, modelReq, listIndex++);
    const tokens = opts.countTokens ? counter.count(body) : undefined;
    const reply = tokens && !picked.usage ? { ...picked, usage: measuredUsage(tokens, replyText(picked)) } : picked;
    const recorded: RecordedRequest = { ...modelReq, reply, ...(tokens ? { tokens } : {}) };
    requests.push(recorded);
    if (opts.logFile) appendFileSync(opts.logFile, `${JSON.stringify(recorded)}\n`);
    if (reply.delayMs) await sleep(reply.delayMs);
    if (res.destroyed) return; // the CLI was killed while we waited
    const enc = encodeReply(route.protocol, reply, modelReq.model, route.streaming);
    res.writeHead(enc.status, { 'content-type': enc.contentType, 'cache-control': 'no-cache', ...enc.headers });
    for (const chunk of enc.chunks) res.write(chunk);
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake model server error: ${String(e)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setScript(next) {
      script = next;
      listIndex = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
