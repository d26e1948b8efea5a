// Encodes a Reply in each CLI's wire protocol: the minimal SSE streams each real
// CLI accepts (the adapter tests in test/agents/ run the real binaries against them).
import type { ErrorReply, Protocol, Reply, ReplyUsage, TextReply, ToolReply } from './script.js';

export interface Encoded {
  status: number;
  contentType: string;
  /** Written one after another; SSE events for streams, one JSON body otherwise. */
  chunks: string[];
  headers?: Record<string, string>;
}

const DEFAULT_USAGE: ReplyUsage = { inputTokens: 42, outputTokens: 7 };
const sse = (event: string | null, data: unknown): string =>
  `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
const stream = (chunks: string[]): Encoded => ({ status: 200, contentType: 'text/event-stream', chunks });
const isTool = (r: Reply): r is ToolReply => 'tool' in r;
const isError = (r: Reply): r is ErrorReply => 'error' in r;
let seq = 0;
const nextId = (prefix: string): string => `${prefix}_${Date.now().toString(36)}${(++seq).toString(36)}`;

function anthropic(r: TextReply | ToolReply, model: string, u: ReplyUsage): Encoded {
  const message = {
    id: nextId('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
  };
  const start = sse('message_start', {
    type: 'message_start',
    message: { ...message, usage: { input_tokens: u.inputTokens, output_tokens: 1 } },
  });
  let block: string[];
  if (isTool(r)) {
    const id = r.tool.id ?? nextId('toolu');
    block = [
      sse('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id, name: r.tool.name, input: {} },
      }),
      sse('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(r.tool.input) },
      }),
    ];
  } else {
    block = [
      sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      sse('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: r.text },
      }),
    ];
  }
  const stop = isTool(r) ? 'tool_use' : 'end_turn';
  return stream([
    start,
    ...block,
    sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
    sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: u.outputTokens },
    }),
    sse('message_stop', { type: 'message_stop' }),
  ]);
}

function responses(r: TextReply | ToolReply, model: string, u: ReplyUsage): Encoded {
  let item: Record<string, unknown>;
  if (isTool(r) && typeof r.tool.input === 'string') {
    item = {
      type: 'custom_tool_call',
      id: nextId('ctc'),
      call_id: r.tool.id ?? nextId('call'),
      name: r.tool.name,
      input: r.tool.input,
      status: 'completed',
    };
  } else if (isTool(r)) {
    item = {
      type: 'function_call',
      id: nextId('fc'),
      call_id: r.tool.id ?? nextId('call'),
      name: r.tool.name,
      arguments: JSON.stringify(r.tool.input),
    };
  } else {
    item = {
      type: 'message',
      id: nextId('msg'),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: r.text, annotations: [] }],
    };
  }
  const usage = {
    input_tokens: u.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: u.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.inputTokens + u.outputTokens,
  };
  const response = { id: nextId('resp'), object: 'response', status: 'completed', model, output: [item], usage };
  return stream([
    sse('response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }),
    sse('response.completed', { type: 'response.completed', response }),
  ]);
}

function chat(r: TextReply | ToolReply, model: string, u: ReplyUsage): Encoded {
  const base = {
    id: nextId('chatcmpl'),
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
  };
  const chunk = (delta: unknown, finish: string | null): string =>
    sse(null, { ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const body = isTool(r)
    ? {
        tool_calls: [
          {
            index: 0,
            id: r.tool.id ?? nextId('call'),
            type: 'function',
            function: { name: r.tool.name, arguments: JSON.stringify(r.tool.input) },
          },
        ],
      }
    : { content: r.text };
  const usage = {
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.inputTokens + u.outputTokens,
  };
  return stream([
    chunk({ role: 'assistant', content: '' }, null),
    chunk(body, null),
    chunk({}, isTool(r) ? 'tool_calls' : 'stop'),
    sse(null, { ...base, choices: [], usage }),
    'data: [DONE]\n\n',
  ]);
}

function geminiBody(r: TextReply | ToolReply, model: string, u: ReplyUsage): unknown {
  const part = isTool(r)
    ? { functionCall: { name: r.tool.name, args: r.tool.input, ...(r.tool.id ? { id: r.tool.id } : {}) } }
    : { text: r.text };
  return {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: u.inputTokens,
      candidatesTokenCount: u.outputTokens,
      totalTokenCount: u.inputTokens + u.outputTokens,
    },
    modelVersion: model,
  };
}

/** Each provider's error type for a status, as its API sends it. */
function errorType(protocol: Protocol, status: number): string {
  if (protocol === 'anthropic') {
    const types: Record<number, string> = {
      401: 'authentication_error',
      429: 'rate_limit_error',
      529: 'overloaded_error',
    };
    return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  }
  if (protocol === 'gemini') {
    const types: Record<number, string> = { 401: 'UNAUTHENTICATED', 429: 'RESOURCE_EXHAUSTED', 503: 'UNAVAILABLE' };
    return types[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
  }
  return status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
}

const DAILY_QUOTA = {
  '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
  violations: [
    {
      quotaMetric: 'generativelanguage.googleapis.com/generate_requests_per_model_per_day',
      quotaId: 'GenerateRequestsPerDayPerProjectPerModel',
    },
  ],
};

function errorBody(protocol: Protocol, r: ErrorReply): unknown {
  const message = r.message ?? `fake model error ${r.error}`;
  const type = errorType(protocol, r.error);
  if (protocol === 'anthropic') return { type: 'error', error: { type, message } };
  if (protocol === 'gemini') {
    return { error: { code: r.error, message, status: type, ...(r.quota ? { details: [DAILY_QUOTA] } : {}) } };
  }
  const openai = r.quota ? 'insufficient_quota' : type;
  return { error: { message, type: openai, code: r.error === 429 ? openai : String(r.error) } };
}

/** `streaming` false is Gemini's plain generateContent: the same object as one JSON body. */
export function encodeReply(protocol: Protocol, reply: Reply, askedModel: string | null, streaming = true): Encoded {
  if (isError(reply)) {
    const after = reply.retryAfter;
    // `retry-after-ms` too: OpenCode's session retry reads it first; the SDKs take a 0 `retry-after` as absent.
    const retry = { 'retry-after': String(after), 'retry-after-ms': String((after ?? 0) * 1000) };
    const body = [JSON.stringify(errorBody(protocol, reply))];
    const headers = after === undefined ? {} : { headers: retry };
    return { status: reply.error, contentType: 'application/json', chunks: body, ...headers };
  }
  if (isTool(reply) && typeof reply.tool.input === 'string' && protocol !== 'responses') {
    return encodeReply(
      protocol,
      { error: 400, message: 'fake script: string tool input needs the Responses protocol' },
      askedModel,
    );
  }
  const model = reply.model ?? askedModel ?? 'fake-model';
  const usage = reply.usage ?? DEFAULT_USAGE;
  if (protocol === 'anthropic') return anthropic(reply, model, usage);
  if (protocol === 'responses') return responses(reply, model, usage);
  if (protocol === 'chat') return chat(reply, model, usage);
  const body = geminiBody(reply, model, usage);
  if (!streaming) return { status: 200, contentType: 'application/json', chunks: [JSON.stringify(body)] };
  return stream([`data: ${JSON.stringify(body)}\r\n\r\n`]);
}
