// `model-prices`: USD per million input and output tokens for models the built-in price table
// (src/budget/prices.json) does not know, or priced differently for this team.
import YAML from 'yaml';
import type { Price } from '../budget/prices.js';
import { example, fail, firstLine } from './errors.js';
import { field } from './fields.js';
import { mapForm } from './file-forms.js';
import * as z from 'zod';

/** A price as the file writes it: both rates, US dollars per million tokens (see isPrice). */
const PRICE = z.strictObject({ input: z.number().min(0), output: z.number().min(0) });

export const MODEL_PRICES_EXAMPLE = 'my-model:\n  input: 3\n  output: 15';

const isPrice = (v: unknown): v is Price =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.keys(v).every((k) => k === 'input' || k === 'output') &&
  [(v as Price).input, (v as Price).output].every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0);

export function modelPrices(name: string) {
  return field(
    (value): Record<string, Price> => {
      let data: unknown;
      try {
        data = YAML.parse(value);
      } catch (error) {
        fail(`must be a YAML or JSON map (${firstLine(error)})`, null, example(name, MODEL_PRICES_EXAMPLE));
      }
      if (typeof data !== 'object' || data === null || Array.isArray(data))
        fail('must be a YAML or JSON map of model names', value, example(name, MODEL_PRICES_EXAMPLE));
      for (const [model, price] of Object.entries(data)) {
        if (!isPrice(price)) {
          const what = `has no valid price for "${model}": give input and output, USD per million tokens`;
          fail(what, null, example(name, MODEL_PRICES_EXAMPLE));
        }
      }
      return data as Record<string, Price>;
    },
    mapForm(z.record(z.string(), PRICE), 'a map from model name to input and output prices'),
  );
}
