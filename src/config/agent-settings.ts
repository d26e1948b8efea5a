// `agent-config` (per-CLI settings merged into the config file each adapter writes)
// and `agent-versions` (npm versions to install when a CLI is missing).
import YAML from 'yaml';
import type { AgentKind } from '../agents/types.js';
import { example, fail, firstLine } from './errors.js';
import { field, splitLines } from './fields.js';
import { mapForm } from './file-forms.js';
import * as z from 'zod';

/** The CLIs that have a config file and an npm package; `command` has neither. */
const CONFIGURABLE_CLIS = ['claude', 'codex', 'opencode', 'gemini'] as const;
type Cli = (typeof CONFIGURABLE_CLIS)[number];

/** A map keyed by CLI name, for the repository config's schema: any subset of the CLIs. */
const byCli = (value: z.ZodType) => z.partialRecord(z.enum(CONFIGURABLE_CLIS), value);
/** The versions of the file's map: read back as text (failsafe), so any scalar YAML typed counts. */
const VERSIONS_FORM = mapForm(
  byCli(z.union([z.string(), z.number(), z.boolean(), z.null()])),
  'a map from CLI name to version, or cli@version lines',
  true,
);

const CONFIG_EXAMPLE = 'codex:\n  model_provider: azure';
const VERSIONS_EXAMPLE = 'claude@2.1.330\ncodex@0.169.0';

function isCli(key: string): key is Cli {
  return (CONFIGURABLE_CLIS as readonly string[]).includes(key);
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return value === null ? 'nothing' : `a ${typeof value}`;
}

/** Parses YAML or JSON (JSON is YAML) into a map; `failsafe` keeps every scalar a string. */
function parseMap(name: string, value: string, ex: string, failsafe: boolean): Record<string, unknown> {
  let data: unknown;
  try {
    data = YAML.parse(value, failsafe ? { schema: 'failsafe' } : {});
  } catch (error) {
    // The value is not echoed: agent settings may carry keys or private URLs.
    fail(`must be a YAML or JSON map (${firstLine(error)})`, null, example(name, ex));
  }
  if (!isMap(data)) fail(`must be a YAML or JSON map, not ${kindOf(data)}`, null, example(name, ex));
  for (const key of Object.keys(data)) {
    if (!isCli(key))
      fail(`has an unknown CLI "${key}" (known: ${CONFIGURABLE_CLIS.join(', ')})`, null, example(name, ex));
  }
  return data;
}

export function agentConfig(name: string) {
  return field(
    (value): Record<string, Record<string, unknown>> => {
      const data = parseMap(name, value, CONFIG_EXAMPLE, false);
      for (const [cli, settings] of Object.entries(data)) {
        if (isMap(settings)) continue;
        fail(`"${cli}" must be a map of settings, not ${kindOf(settings)}`, null, example(name, CONFIG_EXAMPLE));
      }
      return data as Record<string, Record<string, unknown>>;
    },
    mapForm(byCli(z.record(z.string(), z.unknown())), 'a map from CLI name to its settings'),
  );
}

// An exact version (npm's leading `v` allowed) or a dist-tag such as `latest` or `next`.
const VERSION = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const DIST_TAG = /^[A-Za-z][\w.-]*$/;

function checkVersion(name: string, cli: string, version: unknown): string {
  if (typeof version === 'string' && (VERSION.test(version) || DIST_TAG.test(version))) return version;
  return fail(
    `has a bad version for "${cli}": must be an npm version like 2.1.330 or a dist-tag like latest`,
    String(version),
    example(name, VERSIONS_EXAMPLE),
  );
}

/** A map (`claude: 2.1.330`) when any line has `key:`, else `name@version` lines. */
export function agentVersions(name: string) {
  return field((value): Partial<Record<AgentKind, string>> => {
    const entries: [string, unknown][] = /^\s*\{|^\s*"?[\w-]+"?\s*:/m.test(value)
      ? Object.entries(parseMap(name, value, VERSIONS_EXAMPLE, true))
      : splitLines(value).map((line) => {
          const at = line.lastIndexOf('@');
          if (at <= 0) fail('must be `cli@version` lines or a map', line, example(name, VERSIONS_EXAMPLE));
          return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
        });
    const versions: Partial<Record<AgentKind, string>> = {};
    for (const [cli, version] of entries) {
      if (!isCli(cli)) {
        fail(
          `has an unknown CLI "${cli}" (known: ${CONFIGURABLE_CLIS.join(', ')})`,
          cli,
          example(name, VERSIONS_EXAMPLE),
        );
      }
      versions[cli] = checkVersion(name, cli, version);
    }
    return versions;
  }, VERSIONS_FORM);
}
