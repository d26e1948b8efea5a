// What the fake model answers, independent of the wire protocol. A test hands the
// server a Script; each model request becomes one Reply, which protocols.ts then
// encodes as Anthropic Messages, OpenAI Responses, Chat Completions or Gemini SSE.

export type Protocol = 'anthropic' | 'responses' | 'chat' | 'gemini';

export interface ReplyUsage {
  inputTokens: number;
  outputTokens: number;
}

interface ReplyBase {
  /** Wait this long before the first byte (a slow model, for timeout tests). */
  delayMs?: number;
  /** The model name put in the response; default: the one the request asked for. */
  model?: string;
  usage?: ReplyUsage;
}

/** A final assistant text. */
export interface TextReply extends ReplyBase {
  text: string;
}

/**
 * One tool call. `input` is the tool's arguments object; a string is sent as an
 * OpenAI Responses custom tool call (Codex's `apply_patch` takes raw patch text).
 */
export interface ToolReply extends ReplyBase {
  tool: { name: string; input: Record<string, unknown> | string; id?: string };
}

/**
 * An HTTP error answer (a 4xx fails fast in every CLI; 5xx makes them retry). The body has the
 * provider's own error type for the status (429 `rate_limit_error` / `RESOURCE_EXHAUSTED` /
 * `rate_limit_exceeded`, 529 `overloaded_error`). `quota` says the account's quota is spent, not
 * a short rate limit, as each API says it: OpenAI's `insufficient_quota` (Codex does not retry
 * it), Gemini's QuotaFailure on a per-day quota (Gemini CLI does not retry it). `retryAfter`
 * sends a `retry-after` header: 0 makes a CLI that honours it (Codex, OpenCode) retry at once.
 */
export interface ErrorReply extends ReplyBase {
  error: number;
  message?: string;
  quota?: boolean;
  retryAfter?: number;
}

export type Reply = TextReply | ToolReply | ErrorReply;

/** A model request as the script sees it, whatever its protocol. */
export interface ModelRequest {
  protocol: Protocol;
  method: string;
  /** Path and query, e.g. `/v1/messages?beta=true`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (null when absent or not JSON). */
  body: unknown;
  /** The model asked for (body `model`, or the Gemini URL's model segment). */
  model: string | null;
  /** Names of the tools offered to the model. */
  toolNames: string[];
  /** Every tool result in the conversation history, as text, oldest first. */
  toolResults: string[];
  /** Tool results after the last user message that holds no tool result (the current prompt). */
  resultsSincePrompt: number;
  /** All text of the conversation (system, user, assistant, tool results) joined. */
  transcript: string;
  /** Number of this request among the server's model requests, from 0. */
  index: number;
}

/** A fixed list played in order (one per model request) or a function of the request. */
export type Script = Reply[] | ((req: ModelRequest) => Reply);

/** Answers `text` to every request. */
export function always(text: string): Script {
  return () => ({ text });
}

/**
 * The usual agent turn: call `tool` until its result is back, then answer `text`.
 * Counts only results since the current prompt, so a resumed session that already
 * holds results from an earlier run starts over with the tool call.
 */
export function toolThenText(tool: ToolReply['tool'], text: string): Script {
  return toolsThenText([tool], text);
}

/** Several tool calls in a row (e.g. Read then Edit), then the final text. */
export function toolsThenText(tools: ToolReply['tool'][], text: string): Script {
  return (req) => {
    const next = tools[req.resultsSincePrompt];
    return next ? { tool: next } : { text };
  };
}

/** The reply for one request; a spent list answers a fast 400 that says so. */
export function pick(script: Script, req: ModelRequest, listIndex: number): Reply {
  if (typeof script === 'function') return script(req);
  return script[listIndex] ?? { error: 400, message: `fake model script exhausted after ${script.length} replies` };
}

/** A reviewer envelope as the model would write it. */
export function envelopeText(payload: unknown, prose = 'Review done.'): string {
  return `${prose}\n\nBEGIN_JSON\n${JSON.stringify(payload, null, 2)}\nEND_JSON\n`;
}
