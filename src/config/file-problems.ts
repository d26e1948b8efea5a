// The repository config's problems in the words of its author, each naming the file, the line and
// the key, so the author goes straight to it. A value of a `defaults` or preset key gets the message
// the input's own parser gives (the one a workflow's input would get) whenever that parser refuses
// it; otherwise the value has the wrong form, and the message says which form it needs.
import YAML, { isMap, isSeq, LineCounter, type Node } from 'yaml';
import * as z from 'zod';
import { ConfigError, firstLine } from './errors.js';
import { fileFormOf } from './file-forms.js';
import { asInputString, isWorkflowOnly } from './input-layer.js';
import { INPUT_NAMES, inputSchemaShape, type InputName } from './inputs.js';
import { HOOK_POINTS, repoConfigSchema } from './repo-config-schema.js';

/** The file as read: its data, and the line (from 1) of the key at a path, when it has one. */
export interface ReadFile {
  data: unknown;
  lineOf(path: readonly PropertyKey[]): number | undefined;
}

/** Reads the YAML, keeping each node's place; bad YAML is a ConfigError naming its line. */
export function readYaml(text: string, file: string): ReadFile {
  const lineCounter = new LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter });
  const [error] = doc.errors;
  if (error) throw new ConfigError([`${file} is not valid YAML: ${firstLine(error)}`]);
  const lineAt = (offset: number | undefined) => (offset === undefined ? undefined : lineCounter.linePos(offset).line);
  return {
    data: doc.toJS() ?? {},
    lineOf(path) {
      let node: unknown = doc.contents;
      let at = (doc.contents as Node | null)?.range?.[0];
      for (const segment of path) {
        if (isMap(node)) {
          const pair = node.items.find(
            (p) => String((p.key as { value?: unknown } | null)?.value ?? p.key) === segment,
          );
          if (!pair) break;
          at = (pair.key as Node | null)?.range?.[0] ?? at;
          node = pair.value;
        } else if (isSeq(node) && typeof segment === 'number' && node.items[segment]) {
          node = node.items[segment];
          at = (node as Node).range?.[0] ?? at;
        } else break;
      }
      return lineAt(at);
    },
  };
}

const KNOWN_KEYS: Record<string, readonly string[]> = {
  '': Object.keys(repoConfigSchema.shape),
  hooks: HOOK_POINTS,
  paths: ['include', 'exclude'],
};

/** Zod's messages in the words of the file's author: maps and lists, not objects and arrays. */
export function plainWords(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_union') return 'must be a string or a list of strings';
  if (issue.code !== 'invalid_type') return undefined;
  const noun: Record<string, string> = { object: 'a map', array: 'a list', string: 'a string' };
  return `must be ${noun[issue.expected] ?? issue.expected}`;
}

/** How deep the inputs of a `defaults` or preset block sit in a path (0: not in one). */
function layerDepth(path: readonly PropertyKey[]): number {
  if (path[0] === 'defaults') return 1;
  return path[0] === 'presets' && path.length >= 2 ? 2 : 0;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<PropertyKey, unknown> | undefined)?.[key], data);
}

/** What is wrong with a layer's value: the input parser's words, else the form it needs. */
function inputProblem(name: InputName, value: unknown): string {
  const text = asInputString(value)?.trim();
  const parsed = inputSchemaShape[name].safeParse(text || undefined);
  if (!parsed.success && parsed.error.issues[0]) return parsed.error.issues[0].message;
  return `must be ${fileFormOf(inputSchemaShape[name]).expects}`;
}

/** Edits (insert, delete, replace a character) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/** What a key that is no input says: the input it most likely misspells, if one is two edits away. */
function notAnInput(key: string): string {
  const near = INPUT_NAMES.filter((name) => !isWorkflowOnly(name))
    .map((name) => ({ name, edits: editDistance(key, name) }))
    .sort((a, b) => a.edits - b.edits)[0];
  const guess = near && near.edits <= 2 ? `; did you mean ${near.name}?` : '';
  return `is not an action input${guess} (see the inputs in docs/configuration.md)`;
}

/** One problem per key: where it is and what is wrong with it. */
function explain(issue: z.core.$ZodIssue, data: unknown): { path: PropertyKey[]; message: string }[] {
  const depth = layerDepth(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const where = issue.path.join('.');
    return issue.keys.map((key) => {
      const path = [...issue.path, key];
      if (depth === issue.path.length && depth > 0) {
        const message = isWorkflowOnly(key) ? 'can only be set in the workflow file, as an input' : notAnInput(key);
        return { path, message };
      }
      return { path, message: `is not a known key (known: ${KNOWN_KEYS[where]?.join(', ') ?? ''})` };
    });
  }
  const name = issue.path[depth];
  if (depth > 0 && name !== undefined && (INPUT_NAMES as PropertyKey[]).includes(name)) {
    const path = issue.path.slice(0, depth + 1);
    return [{ path, message: inputProblem(name as InputName, valueAt(data, path)) }];
  }
  return [{ path: issue.path, message: issue.message }];
}

/** Every problem of the file, one line each: `file:line: key message`. */
export function problemLines(file: string, read: ReadFile, issues: readonly z.core.$ZodIssue[]): string[] {
  const found = issues.flatMap((issue) =>
    explain(issue, read.data).map(({ path, message }) => {
      const line = read.lineOf(path);
      return {
        line,
        text: `${file}${line === undefined ? '' : `:${line}`}: ${path.join('.') || 'the top level'} ${message}`,
      };
    }),
  );
  // In the order of the file; a value that fails in several ways is one problem.
  found.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return [...new Set(found.map((p) => p.text))];
}
