// What the fake model server counts of each request when asked to (`countTokens`): the tokens
// it was sent, and how many of them a provider's prompt cache could have served.
//
// Tokens are estimated as one per 4 characters of the prompt, the rule of thumb OpenAI and
// Anthropic give for English text; the bench compares runs, so only consistency matters.
// The prompt is read the way providers cache it, as one prefix in a fixed order: tool
// definitions, then the system prompt, then the conversation (Anthropic's prompt caching
// docs: "tools, system, messages"; OpenAI caches the longest previously seen prefix). A
// request's cached part is its longest common prefix with any earlier request's prompt.
// `cache_control` marks move from message to message between requests and do not change
// what is cached, so they are left out.
import type { ReplyUsage } from './script.js';

export interface RequestTokens {
  /** Tokens of the whole prompt sent (tools, system, conversation). */
  input: number;
  /** Of those, the tokens of the longest prefix seen in an earlier request. */
  cached: number;
}

const CHARS_PER_TOKEN = 4;
export const estimateTokens = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

/** The prompt of a request in caching order, whatever the protocol. */
function promptText(body: unknown): string {
  const b = (body ?? {}) as Record<string, unknown>;
  const parts = [
    b.tools ?? null,
    b.system ?? b.instructions ?? b.systemInstruction ?? null,
    b.messages ?? b.input ?? b.contents ?? null,
  ];
  return JSON.stringify(parts, (key, value: unknown) => (key === 'cache_control' ? undefined : value));
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Counts each request against every earlier one of the same server. */
export function createTokenCounter() {
  const seen: string[] = [];
  return {
    count(body: unknown): RequestTokens {
      const text = promptText(body);
      let cached = 0;
      for (const earlier of seen) cached = Math.max(cached, commonPrefix(text, earlier));
      seen.push(text);
      return { input: estimateTokens(text.length), cached: estimateTokens(cached) };
    },
  };
}

/** The usage a reply reports when the server counts tokens: what it was sent, and its own answer. */
export function measuredUsage(tokens: RequestTokens, replyText: string): ReplyUsage {
  return { inputTokens: tokens.input, outputTokens: Math.max(1, estimateTokens(replyText.length)) };
}

/** Characters of one request's tool definitions, system text and conversation. */
interface PromptParts {
  tools: number;
  system: number;
  conversation: number;
}

const jsonChars = (v: unknown): number => (v == null ? 0 : JSON.stringify(v).length);
const isSystemMessage = (m: unknown): boolean =>
  ['system', 'developer'].includes(String((m as { role?: unknown })?.role));

/**
 * Where a request's characters go. The CLIs put their own text in different places (Codex sends
 * its instructions as developer messages in `input`, OpenCode its system prompt as the first chat
 * message), so a message of role system or developer counts as system text; the conversation is
 * the rest (the prompt, tool calls and their results, answers).
 */
export function promptParts(body: unknown): PromptParts {
  const b = (body ?? {}) as Record<string, unknown>;
  const conversation = b.messages ?? b.input ?? b.contents ?? null;
  const items: unknown[] = Array.isArray(conversation) ? conversation : [];
  const systemItems = items.filter(isSystemMessage);
  return {
    tools: jsonChars(b.tools),
    system:
      jsonChars(b.system ?? b.instructions ?? b.systemInstruction) + (systemItems.length ? jsonChars(systemItems) : 0),
    conversation: Array.isArray(conversation)
      ? jsonChars(items.filter((m) => !isSystemMessage(m)))
      : jsonChars(conversation),
  };
}
