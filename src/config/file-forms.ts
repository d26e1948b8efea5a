// How each input may be written in the repository config, where YAML gives it a type: `max-rounds: 3`
// is a number, `dry-run: true` a switch, `verify:` a list. Every input arrives from a workflow as a
// string; the file's value is turned into that string (input-layer.ts) and then checked by the same
// parser. A form describes only what the file may hold on its way there: the repository config's
// zod schema is built from the forms, and its JSON Schema (for editors) is generated from that
// schema, so a form must accept every value whose string the parser accepts (never less).
import * as z from 'zod';

export interface FileForm {
  /** The YAML values the file may hold for the input. */
  schema: z.ZodType;
  /** What the value must be, in the words of an error message: "must be <expects>". */
  expects: string;
}

/** One value: YAML reads `3` as a number and `yes` as a string; the input takes their text. */
const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const SCALAR: FileForm = { schema: scalar, expects: 'one value (a string), not a list or a map' };

export const LINES: FileForm = {
  schema: z.union([scalar, z.array(scalar)]),
  expects: 'a string (one item a line) or a list of strings',
};

/**
 * The one code point besides a letter's two cases that lower-cases to an ASCII letter, so that
 * the parsers (toLowerCase on both sides) take it for that letter: the Kelvin sign is a k.
 */
export const OTHER_CASES: Readonly<Record<string, string>> = { k: '\u212a' };

/** The ways to write an ASCII character that the parsers take for it. */
function lettersLike(c: string): string[] {
  const lower = c.toLowerCase();
  return [...new Set([lower, c.toUpperCase(), ...(OTHER_CASES[lower] ?? '')])];
}

/** A pattern for `text` in any letter case, as the parsers compare (toLowerCase on both sides). */
function anyCase(text: string): string {
  // Only the characters special outside a class: JSON Schema validators compile patterns with
  // the `u` flag, which refuses needless escapes.
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [...text]
    .map((c) => {
      const same = lettersLike(c);
      return same.length > 1 ? `[${same.map(escape).join('')}]` : escape(c);
    })
    .join('');
}

/** A string the parser will trim and compare with `values` in any letter case. */
function anyCaseOf(values: readonly string[]): z.ZodString {
  return z.string().regex(new RegExp(`^\\s*(?:${values.map(anyCase).join('|')})\\s*$`));
}

export function oneOfForm(values: readonly string[]): FileForm {
  return {
    // The enum lets an editor offer the values; the pattern takes them in any case, as the input does.
    schema: z.union([z.enum(values as [string, ...string[]]), anyCaseOf(values)]),
    expects: `one of ${values.join(', ')}`,
  };
}

export const BOOLEAN: FileForm = {
  schema: z.union([z.boolean(), anyCaseOf(['true', 'false'])]),
  expects: 'true or false',
};

export function wholeNumberForm(min: number, max: number): FileForm {
  const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
  return {
    schema: z.union([z.int().min(min).max(max), z.string().regex(/^\s*\d+\s*$/)]),
    expects: `a whole number ${range}`,
  };
}

export const POSITIVE_DECIMAL: FileForm = {
  schema: z.union([z.number().positive(), z.string().regex(/^\s*\d+(?:\.\d+)?\s*$/)]),
  expects: 'a positive number',
};

/** A map, or YAML/JSON text of one (as a workflow gives it). */
export function mapForm(map: z.ZodType, expects: string, orLines = false): FileForm {
  const text = orLines ? LINES.schema : z.string();
  return { schema: z.union([map, text]), expects };
}

const forms = new WeakMap<z.ZodType, FileForm>();

/** Records how the file writes the input `schema` parses. */
export function withForm<S extends z.ZodType>(schema: S, form: FileForm): S {
  forms.set(schema, form);
  return schema;
}

/** The form of an entry of the input schema (a default around it is looked through). */
export function fileFormOf(entry: z.ZodType): FileForm {
  const inner = entry instanceof z.ZodDefault ? (entry.unwrap() as z.ZodType) : entry;
  return forms.get(inner) ?? SCALAR;
}
