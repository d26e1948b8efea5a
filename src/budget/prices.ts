// What a model's tokens cost, for the CLIs that report tokens but not cost: the
// table in prices.json (list prices with their source and date), overridden model by model by
// the `model-prices` input. Model names match like the model check does: letter case and a
// provider prefix (`google/`, `openrouter/anthropic/`) do not matter.
import table from './prices.json' with { type: 'json' };

export interface Price {
  /** USD per million input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
}

export type PriceTable = Readonly<Record<string, Price>>;

const normalizeModelName = (model: string): string => {
  const n = model.trim().toLowerCase();
  return n.slice(n.lastIndexOf('/') + 1);
};

/** The built-in table and the input's overrides, keyed by normalised model name. */
export function priceTable(overrides: Record<string, Price> = {}): PriceTable {
  const out: Record<string, Price> = {};
  for (const [model, p] of Object.entries(table.models)) {
    out[normalizeModelName(model)] = { input: p.input, output: p.output };
  }
  for (const [model, p] of Object.entries(overrides)) out[normalizeModelName(model)] = p;
  return out;
}

export function priceOf(prices: PriceTable, model: string): Price | null {
  return prices[normalizeModelName(model)] ?? null;
}

/** The models the built-in table knows, for error messages. */
export const PRICED_MODELS: readonly string[] = Object.keys(table.models);
