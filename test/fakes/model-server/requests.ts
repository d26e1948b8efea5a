// Reads a model request of any of the four protocols into one ModelRequest shape,
// so scripts and assertions need not know which CLI sent it. Shapes as the real CLIs send
// them (the adapter tests in test/agents/ run the real binaries against this server).
import type { ModelRequest, Protocol } from './script.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** One conversation entry, reduced to what scripts look at. */
interface Entry {
  texts: string[];
  results: string[];
  /** A user message that carries no tool result: a new prompt. */
  isPrompt: boolean;
}

/** Text of a content value that is a string, a list of text blocks, or anything else (JSON). */
function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((b) => (isObj(b) && typeof b.text === 'string' ? b.text : textOf(b))).join('\n');
  return v === undefined || v === null ? '' : JSON.stringify(v);
}

function anthropicEntries(body: Obj): Entry[] {
  const out: Entry[] = [{ texts: [textOf(body.system)], results: [], isPrompt: false }];
  for (const m of arr(body.messages).filter(isObj)) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : arr(m.content).filter(isObj);
    const results = blocks.filter((b) => b.type === 'tool_result').map((b) => textOf(b.content));
    const texts = blocks.filter((b) => b.type === 'text').map((b) => str(b.text));
    texts.push(...blocks.filter((b) => b.type === 'tool_use').map((b) => JSON.stringify(b.input)));
    out.push({ texts, results, isPrompt: m.role === 'user' && results.length === 0 });
  }
  return out;
}

function responsesEntries(body: Obj): Entry[] {
  const out: Entry[] = [{ texts: [str(body.instructions)], results: [], isPrompt: false }];
  for (const item of arr(body.input).filter(isObj)) {
    const type = str(item.type) || 'message';
    if (type.endsWith('_call_output')) out.push({ texts: [], results: [textOf(item.output)], isPrompt: false });
    else if (type === 'message') {
      out.push({ texts: [textOf(item.content)], results: [], isPrompt: item.role === 'user' });
    } else if (type.endsWith('_call'))
      out.push({ texts: [str(item.arguments) || str(item.input)], results: [], isPrompt: false });
  }
  return out;
}

function chatEntries(body: Obj): Entry[] {
  return arr(body.messages)
    .filter(isObj)
    .map((m) => {
      if (m.role === 'tool') return { texts: [], results: [textOf(m.content)], isPrompt: false };
      const calls = arr(m.tool_calls)
        .filter(isObj)
        .map((c) => JSON.stringify(c.function));
      return { texts: [textOf(m.content), ...calls], results: [], isPrompt: m.role === 'user' };
    });
}

function geminiEntries(body: Obj): Entry[] {
  const sys = isObj(body.systemInstruction) ? textOf(body.systemInstruction.parts) : '';
  const out: Entry[] = [{ texts: [sys], results: [], isPrompt: false }];
  for (const c of arr(body.contents).filter(isObj)) {
    const parts = arr(c.parts).filter(isObj);
    const results = parts
      .filter((p) => isObj(p.functionResponse))
      .map((p) => JSON.stringify((p.functionResponse as Obj).response));
    const texts = parts.filter((p) => typeof p.text === 'string').map((p) => str(p.text));
    texts.push(...parts.filter((p) => isObj(p.functionCall)).map((p) => JSON.stringify(p.functionCall)));
    out.push({ texts, results, isPrompt: c.role === 'user' && results.length === 0 });
  }
  return out;
}

function toolNamesOf(protocol: Protocol, body: Obj): string[] {
  const tools = arr(body.tools).filter(isObj);
  if (protocol === 'gemini')
    return tools.flatMap((t) =>
      arr(t.functionDeclarations)
        .filter(isObj)
        .map((d) => str(d.name)),
    );
  if (protocol === 'chat') return tools.map((t) => (isObj(t.function) ? str(t.function.name) : str(t.name)));
  return tools.map((t) => str(t.name) || str(t.type));
}

const ENTRIES = { anthropic: anthropicEntries, responses: responsesEntries, chat: chatEntries, gemini: geminiEntries };

export function readModelRequest(
  protocol: Protocol,
  raw: { method: string; url: string; headers: ModelRequest['headers']; body: unknown; urlModel?: string | undefined },
  index: number,
): ModelRequest {
  const body = isObj(raw.body) ? raw.body : {};
  const entries = ENTRIES[protocol](body);
  let lastPrompt = -1;
  entries.forEach((e, i) => e.isPrompt && (lastPrompt = i));
  const toolResults = entries.flatMap((e) => e.results);
  const resultsSincePrompt = entries.slice(lastPrompt + 1).flatMap((e) => e.results).length;
  const transcript = entries
    .flatMap((e) => [...e.texts, ...e.results])
    .filter(Boolean)
    .join('\n');
  const { urlModel, ...req } = raw;
  const model = urlModel ?? (typeof body.model === 'string' ? body.model : null);
  return {
    protocol,
    ...req,
    model,
    toolNames: toolNamesOf(protocol, body),
    toolResults,
    resultsSincePrompt,
    transcript,
    index,
  };
}
