// Error shapes for configuration problems. Every problem names where the value came from
// (an input, or a key of the repo config file), shows the offending value, and a value
// that works: a user fixes it in one try.

/** Every configuration problem found at once, one line each. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(readonly problems: readonly string[]) {
    super(
      problems.length === 1
        ? `Invalid configuration: ${problems[0]}`
        : `Invalid configuration (${problems.length} problems):\n${problems.map((p) => `- ${p}`).join('\n')}`,
    );
  }
}

/** Thrown by a field parser; caught by the schema and turned into a zod issue. */
export class InvalidValue extends Error {}

const MAX_SHOWN = 120;

/** The first line of a parser's error (the yaml package follows it with a code excerpt). */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').replace(/:\s*$/, '');
}

/** The offending value, quoted and cut short so a pasted file does not flood the log. */
function shown(value: string): string {
  const cut = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
  return JSON.stringify(cut);
}

/** `name: value`, or a YAML block when the value spans lines, as a user would write it in `with:`. */
export function example(name: string, value: string): string {
  if (!value.includes('\n')) return `${name}: ${value}`;
  return `${name}: |\n${value
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')}`;
}

/**
 * Rejects a value. `got` is the offending value (omit it for values that may hold secrets);
 * `ex` is a complete working example line.
 */
export function fail(what: string, got: string | null, ex: string): never {
  const gotPart = got === null ? '' : `; got ${shown(got)}`;
  throw new InvalidValue(`${what}${gotPart}. Example: ${ex}`);
}
