// Builders for the zod schema in inputs.ts. Each input arrives as a string (or undefined when
// not given); a builder turns it into a typed value or one readable zod issue.
import * as z from 'zod';
import { InvalidValue, example, fail } from './errors.js';
import {
  BOOLEAN,
  LINES,
  POSITIVE_DECIMAL,
  SCALAR,
  oneOfForm,
  wholeNumberForm,
  withForm,
  type FileForm,
} from './file-forms.js';

/**
 * A field whose parser throws InvalidValue (via `fail`) on a bad value; `form` says how the
 * repository config may write it (file-forms.ts).
 */
export function field<T>(parse: (value: string) => T, form: FileForm = SCALAR) {
  const schema = z
    .string()
    .optional()
    .transform((value, ctx): T | undefined => {
      if (value === undefined) return undefined;
      try {
        return parse(value);
      } catch (error) {
        if (!(error instanceof InvalidValue)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message });
        return z.NEVER;
      }
    });
  return withForm(schema, form);
}

export function text() {
  return field((value) => value);
}

export function wholeNumber(name: string, min: number, max: number, ex: number) {
  return field(
    (value) => {
      const n = /^\d+$/.test(value) ? Number(value) : NaN;
      if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
      const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
      return fail(`must be a whole number ${range}`, value, example(name, String(ex)));
    },
    wholeNumberForm(min, max),
  );
}

export function positiveNumber(name: string, ex: number) {
  return wholeNumber(name, 1, Number.MAX_SAFE_INTEGER, ex);
}

/** Like the runner's getBooleanInput: true or false, any letter case, nothing else. */
export function boolean(name: string) {
  return field((value) => {
    const lower = value.toLowerCase();
    if (lower === 'true' || lower === 'false') return lower === 'true';
    return fail('must be true or false', value, example(name, 'true'));
  }, BOOLEAN);
}

export function oneOf<const V extends readonly string[]>(name: string, values: V, ex: V[number]) {
  return field((value): V[number] => {
    const hit = values.find((v) => v.toLowerCase() === value.toLowerCase());
    if (hit !== undefined) return hit;
    return fail(`must be one of ${values.join(', ')}`, value, example(name, ex));
  }, oneOfForm(values));
}

/** Lines without blanks and whole-line `#` comments, trimmed. */
export function splitLines(value: string, commas = false): string[] {
  return value
    .split(commas ? /[\n,]/ : /\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** A list, one item per line (and per comma when `commas`), each item checked by `parseItem`. */
export function list(parseItem: (item: string) => string, commas: boolean) {
  return field((value) => splitLines(value, commas).map(parseItem), LINES);
}

/** An amount of money or any positive decimal: `5`, `2.50`. */
export function positiveDecimal(name: string, ex: string) {
  return field((value) => {
    const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
    if (Number.isFinite(n) && n > 0) return n;
    return fail('must be a positive number', value, example(name, ex));
  }, POSITIVE_DECIMAL);
}
