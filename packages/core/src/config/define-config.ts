import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { redactUrl } from '../log/logger.js';
import { configFileKeys } from './config-file-keys.js';

/** One setting: its schema, the environment variable that sets it, and a line of documentation. */
export interface Setting<T extends z.ZodType = z.ZodType> {
  env: string;
  schema: T;
  doc: string;
  /** Shown in errors and docs; marks values never to be printed. */
  secret?: boolean;
}

export type SettingsSpec = Record<string, Setting>;
export type ConfigOf<S extends SettingsSpec> = { readonly [K in keyof S]: z.output<S[K]['schema']> };

export function setting<T extends z.ZodType>(
  env: string,
  schema: T,
  doc: string,
  options: { secret?: boolean } = {},
): Setting<T> {
  return { env, schema, doc, ...options };
}

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  /** A JSON file whose keys are setting names (camelCase); environment variables win over it. */
  file?: string;
  /** Values set by the caller (CLI flags); they win over the file and the environment. */
  overrides?: Record<string, unknown>;
}

/**
 * Parses one service's settings once, at start: CLI overrides > environment > config file > default.
 * A bad value fails with the variable's name, what was wrong and what it should look like.
 */
export function loadConfig<S extends SettingsSpec>(service: string, spec: S, options: LoadOptions = {}): ConfigOf<S> {
  const env = options.env ?? process.env;
  const file = options.file ?? env.CRAWLER_CONFIG;
  const fileValues = readConfigFile(file);
  if (file) checkFileKeys(file, fileValues, service, spec);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(spec)) {
    const fromEnv = env[item.env];
    const sectioned = fileValues[service];
    const fromFile = fileValues[key] ?? (isRecord(sectioned) ? sectioned[key] : undefined);
    const useEnv = options.overrides?.[key] === undefined && fromEnv !== undefined && fromEnv !== '';
    const raw = options.overrides?.[key] ?? (useEnv ? coerce(fromEnv, item.schema) : fromFile);
    const parsed = item.schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      // Credentials inside a URL-valued setting never reach the message, secret or not.
      const shown = item.secret ? '(hidden)' : redactUrl(JSON.stringify(useEnv ? fromEnv : raw) ?? 'undefined');
      throw new ConfigError(
        `${service}: invalid setting ${item.env} (${key}) = ${shown}: ${issue?.message ?? 'invalid'}. ${item.doc}`,
      );
    }
    out[key] = parsed.data;
  }
  return Object.freeze(out) as ConfigOf<S>;
}

/** Environment strings become numbers, booleans or lists when the schema expects them. */
function coerce(value: string, schema: z.ZodType): unknown {
  const type = baseType(schema);
  if (type === 'number') return value.trim() === '' ? value : Number(value);
  if (type === 'boolean') {
    if (/^(1|true|yes|on)$/i.test(value)) return true;
    if (/^(0|false|no|off)$/i.test(value)) return false;
    return value;
  }
  if (type === 'array')
    return value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  if (type === 'object' || type === 'record') {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

function baseType(schema: z.ZodType): string {
  let current: z.ZodType = schema;
  for (let i = 0; i < 10; i++) {
    const def = (current as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } })._zod
      .def;
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return def.type;
  }
  return 'unknown';
}

function readConfigFile(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!isRecord(parsed)) throw new Error('top level must be an object');
    return parsed;
  } catch (cause) {
    throw new ConfigError(`config file ${path} (CRAWLER_CONFIG) cannot be read: ${(cause as Error).message}`, {
      cause,
    });
  }
}

/**
 * A key the crawler does not know is refused, not ignored: a misspelt setting would otherwise
 * leave its default in force without a word. A section is checked against its own settings.
 */
function checkFileKeys(file: string, values: Record<string, unknown>, service: string, spec: SettingsSpec): void {
  const sections: Record<string, readonly string[]> = { ...configFileKeys, [service]: Object.keys(spec) };
  const flat = new Set([...Object.values(sections).flat()]);
  const refuse = (key: string, known: Iterable<string>, prefix = '') => {
    const near = closest(key, known);
    throw new ConfigError(
      `config file ${file} (CRAWLER_CONFIG): unknown key ${prefix}${key}${near ? ` (did you mean ${prefix}${near}?)` : ''}; the keys are listed in docs/CONFIGURATION.md`,
    );
  };
  for (const [key, value] of Object.entries(values)) {
    const section = sections[key];
    if (!section) {
      if (!flat.has(key)) refuse(key, [...Object.keys(sections), ...flat]);
      continue;
    }
    if (!isRecord(value))
      throw new ConfigError(`config file ${file} (CRAWLER_CONFIG): "${key}" must be an object of ${key} settings`);
    for (const inner of Object.keys(value)) if (!section.includes(inner)) refuse(inner, section, `${key}.`);
  }
}

/** The known key nearest a misspelt one (an edit per four letters at most), for the error message. */
function closest(key: string, known: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(key.length / 4)) + 1;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Documentation table of a spec, for --help and docs. */
export function describeSettings(spec: SettingsSpec): string[] {
  return Object.entries(spec).map(([key, item]) => {
    const fallback = item.schema.safeParse(undefined);
    const shown = item.secret
      ? ''
      : fallback.success && fallback.data !== undefined
        ? ` (default ${JSON.stringify(fallback.data)})`
        : '';
    return `  ${item.env.padEnd(34)} ${key}: ${item.doc}${shown}`;
  });
}
