// A tool's registry configuration as a call may see it: the registry's address kept, so that a
// private package is never looked up on the public registry instead, and every credential gone.
// What is kept is what has the shape of a setting of its format (`key = value`, a section, a list
// item; Maven's and NuGet's known elements), without a key that names a credential (with what it
// spans; at any depth of what is kept: a Maven profile's `<gpg.passphrase>`, a JVM's `-D…Password=`
// in Gradle's `org.gradle.jvmargs`), a host-scoped key (npm's `//host/:_authToken`, Bundler's
// `BUNDLE_GEMS__HOST__COM`), a block that holds credentials (Maven's `<servers>`, NuGet's
// `<packageSourceCredentials>`), the user and password of any URL and a token in its query or
// Gemfury path (url-tokens.ts), or a comment (a credential commented out is still one); a line of
// any other shape goes too. What cannot be read as its format is not shown at all (null): the
// layer hides it and says what to pass instead.
import { credentialKey } from './credential-key.js';
import { gradleProperties } from './gradle-properties.js';
import { stripUrlCredentials } from './url-credentials.js';
import { elements, openingTag, withoutComments, withoutElements, withoutFlaggedElements } from './xml-scan.js';

/** The formats a registry configuration is written in (see tool-rules.ts for which tool uses which). */
export type StripFormat =
  'npmrc' | 'yarnrc' | 'ini' | 'env' | 'toml' | 'yaml' | 'bundler' | 'properties' | 'json' | 'maven' | 'nuget' | 'urls';

/** The configuration without credentials, or null when it cannot be read as `format`. */
export function stripCredentials(format: StripFormat, text: string): string | null {
  const out = stripped(format, text);
  return out === null || out === '' || out.endsWith('\n') ? out : `${out}\n`;
}

function stripped(format: StripFormat, text: string): string | null {
  switch (format) {
    case 'npmrc':
      return lines(text, /^\s*([^\s=#;]+)\s*=/, npmCredential);
    case 'yarnrc':
      // Yarn 1's .yarnrc: `key "value"`, `"@scope:registry" "url"`.
      return lines(text, /^\s*("[^"]+"|[^\s"#]+)\s+\S/, npmCredential);
    case 'ini':
      return lines(text, /^\s*([^=:\s[#;]+)\s*[=:]/, credentialKey, { sections: true, continued: true });
    case 'env':
      return lines(text, /^([A-Za-z_][A-Za-z0-9_]*)=/, (key) => key === 'GOAUTH' || credentialKey(key));
    case 'toml':
      return toml(text);
    case 'yaml':
      return yaml(text, credentialKey);
    case 'bundler':
      // A host-scoped key (`BUNDLE_GEMS__EXAMPLE__COM: "user:token"`) is a gem server's credentials;
      // a mirror (`BUNDLE_MIRROR__RUBYGEMS__ORG`) is an address, kept without its user-info.
      return yaml(text, (key) => (key.includes('__') && !key.startsWith('BUNDLE_MIRROR__')) || credentialKey(key));
    case 'properties':
      return gradleProperties(text);
    case 'json':
      return json(text);
    case 'maven':
      // https://maven.apache.org/settings.html: the addresses live in these; `<servers>` holds the logins.
      return xml(text, 'settings', [
        'localRepository',
        'interactiveMode',
        'offline',
        'pluginGroups',
        'proxies',
        'mirrors',
        'profiles',
        'activeProfiles',
      ]);
    case 'nuget':
      // https://learn.microsoft.com/nuget/reference/nuget-config-file: `<packageSourceCredentials>`
      // and `<apikeys>` hold the secrets.
      return xml(text, 'configuration', [
        'config',
        'packageSources',
        'disabledPackageSources',
        'packageSourceMapping',
        'packageRestore',
        'fallbackPackageFolders',
        'solution',
        'activePackageSource',
        'bindingRedirects',
      ]);
    case 'urls':
      // sbt's repositories file: `[repositories]`, then `name` or `name: url, patterns`.
      return lines(text, /^\s*([A-Za-z0-9_.-]+)\s*(?::|$)/, credentialKey, { sections: true });
  }
}

/** npm scopes every credential to a registry (`//host/:_authToken`); any other credential key goes too. */
function npmCredential(key: string): boolean {
  const bare = key.replace(/^"|"$/g, '');
  return bare.startsWith('//') || credentialKey(bare.split(':').pop()!);
}

/**
 * Line formats: a line of the format's `key` shape whose key names no credential, with
 * `sections` a `[section]` line, with `continued` the indented lines that continue a kept value
 * (pip's multi-line `extra-index-url`). Everything else goes.
 */
function lines(
  text: string,
  shape: RegExp,
  credential: (key: string) => boolean,
  o: { sections?: boolean; continued?: boolean } = {},
): string {
  const out: string[] = [];
  let keeping = false;
  for (const line of text.split('\n')) {
    if (/^\s*[#;]/.test(line)) continue;
    if (o.continued && /^\s+\S/.test(line) && !shape.test(line)) {
      if (keeping && !/^\s*[#;]/.test(line)) out.push(stripUrlCredentials(line));
      continue;
    }
    keeping = false;
    if (o.sections && /^\s*\[[^\]]+\]\s*$/.test(line)) {
      out.push(line);
      continue;
    }
    const key = shape.exec(line)?.[1];
    if (key === undefined || credential(key)) continue;
    keeping = true;
    out.push(stripUrlCredentials(line));
  }
  return out.join('\n');
}

/**
 * TOML by lines: `[table]`, and `key = value` whose key (each part of a dotted one, and any key of
 * an inline table in it) names no credential, with the lines of a multi-line array it opens; a
 * table named as a credential's (Poetry's `[pypi-token]`) goes with its keys. Multi-line strings: null.
 */
function toml(text: string): string | null {
  const out: string[] = [];
  let open = 0;
  let keeping = false;
  let credentialTable = false;
  const names = (dotted: string) => dotted.replace(/["'\s]/g, '').split('.');
  for (const line of text.split('\n')) {
    if (open > 0) {
      open += bracketDepth(line);
      if (keeping) out.push(stripUrlCredentials(withoutComment(line)));
      continue;
    }
    if (line.includes('"""') || line.includes("'''")) return null;
    const table = /^\s*\[\[?([^\]]+)\]\]?\s*$/.exec(line)?.[1];
    if (table !== undefined) {
      credentialTable = names(table).some(credentialKey);
      if (!credentialTable) out.push(line);
      continue;
    }
    const key = /^\s*([A-Za-z0-9_."'-]+)\s*=\s*\S/.exec(line)?.[1];
    if (key === undefined) continue;
    const inner = [...line.matchAll(/[{,]\s*([A-Za-z0-9_-]+)\s*=/g)].map((m) => m[1]!);
    keeping = !credentialTable && ![...names(key), ...inner].some(credentialKey);
    open = Math.max(0, bracketDepth(line));
    if (keeping) out.push(stripUrlCredentials(withoutComment(line)));
  }
  return open > 0 ? null : out.join('\n');
}

/**
 * `line` without a trailing `# comment` (blanks, `#`, no quote after it), as
 * line.replace(/\s+#[^"']*$/, '') does. That regex is quadratic in a long line (a setup command
 * may write these files): it retried at every blank, and ran to the end from every `#` before a
 * quote. The comment can only start after the line's last quote, at the start of a run of blanks.
 */
function withoutComment(line: string): string {
  const afterQuote = Math.max(line.lastIndexOf('"'), line.lastIndexOf("'")) + 1;
  const at = line.slice(afterQuote).search(/(?<!\s)\s+#/);
  return at < 0 ? line : line.slice(0, afterQuote + at);
}

function bracketDepth(line: string): number {
  const unquoted = withoutStrings(line);
  return (unquoted.match(/[[{]/g)?.length ?? 0) - (unquoted.match(/[\]}]/g)?.length ?? 0);
}

/**
 * `line` without its quoted strings, as line.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '') does. That
 * regex is quadratic in a long line with an unclosed `"`: it read on to the end from every escaped
 * `"` after it too, which fails as the first did; here those are skipped.
 */
function withoutStrings(line: string): string {
  let out = '';
  let deadUntil = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"' && i >= deadUntil) {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') {
        if (line[j] !== '\\') j++;
        else if (j + 1 < line.length && !LINE_END.test(line[j + 1]!)) j += 2;
        else break;
      }
      if (line[j] === '"') {
        i = j;
        continue;
      }
      deadUntil = j;
    } else if (line[i] === "'") {
      const j = line.indexOf("'", i + 1);
      if (j >= 0) {
        i = j;
        continue;
      }
    }
    out += line[i];
  }
  return out;
}
/** What `.` does not match. */
const LINE_END = /[\n\r\u2028\u2029]/;

/**
 * YAML by lines: `key: value`, `key:` and `- item` lines; a credential key goes with the more
 * indented lines below it. Block scalars and flow collections spread over lines: null.
 */
function yaml(text: string, drop: (key: string) => boolean): string | null {
  const out: string[] = [];
  let droppedAt: number | null = null;
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line) || line.trim() === '') continue;
    const indent = /^\s*/.exec(line)![0].length;
    if (droppedAt !== null) {
      if (indent > droppedAt || (indent === droppedAt && /^\s*-\s/.test(line))) continue;
      droppedAt = null;
    }
    if (/[:-]\s*[|>][+-]?\s*$/.test(line) || /[{[]\s*$/.test(line)) return null;
    const key = /^\s*(?:-\s+)?("[^"]*"|'[^']*'|:?[^\s:#'"][^:#]*?):(\s|$)/.exec(line)?.[1];
    if (key === undefined && !/^\s*-\s+\S/.test(line)) continue;
    if (key !== undefined && drop(key.replace(/^["']|["']$/g, ''))) {
      droppedAt = indent;
      continue;
    }
    out.push(stripUrlCredentials(withoutComment(line)));
  }
  return out.join('\n');
}

/** Composer's config.json: every credential key at any depth (`github-oauth`, `http-basic`, `bearer`). */
function json(text: string): string | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const clean = (v: unknown): unknown => {
    if (typeof v === 'string') return stripUrlCredentials(v);
    if (Array.isArray(v)) return v.map(clean);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>)
          .filter(([k]) => !credentialKey(k))
          .map(([k, x]) => [k, clean(x)]),
      );
    }
    return v;
  };
  return `${JSON.stringify(clean(data), null, 2)}\n`;
}

/**
 * XML: the root element with only its `kept` children, each without an element that holds a
 * credential: any named as one (`<password>`, a Maven profile's `<gpg.passphrase>` or
 * `<sonar.token>` property), an `<add key="…Password" …/>`, a tag with an attribute named as one.
 * Nothing else of the file. An entity, CDATA, or a credential element without an end: null.
 */
function xml(text: string, root: string, kept: string[]): string | null {
  if (/<!\[CDATA\[|<!ENTITY|<!DOCTYPE/i.test(text)) return null;
  const body = withoutComments(text);
  const open = openingTag(body, root);
  if (!open) return null;
  const parts: string[] = [];
  for (const name of kept) {
    for (const element of elements(body, name)) {
      let part = element;
      // These in any case of their tags; below, a closing tag must match its opening tag as XML's do.
      for (const secret of ['password', 'username', 'passphrase', 'privateKey']) part = withoutElements(part, secret);
      const clean = withoutFlaggedElements(part, credentialKey);
      if (clean === null) return null;
      parts.push(stripUrlCredentials(clean));
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${open}\n${parts.join('\n')}\n</${root}>\n`;
}
