import { UsageError } from '../usage-error.js';

export interface RecordFilter {
  field: string;
  value: string;
}

/** `field=value` flags; a dotted field reaches into nested records (`meta.contentTypeSniffed=true`). */
export function parseFilters(command: string, flags: string[]): RecordFilter[] {
  return flags.map((flag) => {
    const at = flag.indexOf('=');
    if (at <= 0) throw new UsageError(`crawler ${command}: --filter must be field=value, got "${flag}"`);
    return { field: flag.slice(0, at), value: flag.slice(at + 1) };
  });
}

/**
 * True when every filter matches the decoded value. `host` also matches records without a host
 * field by the host of their url or sourceUrl (Outlinks, DeadLetter carry no host of their own).
 */
export function matchesFilters(value: unknown, filters: RecordFilter[]): boolean {
  return filters.every(({ field, value: wanted }) => {
    const found = fieldOf(value, field);
    if (found !== undefined && found !== null) return String(found) === wanted;
    if (field !== 'host') return false;
    const url = fieldOf(value, 'url') ?? fieldOf(value, 'sourceUrl');
    return typeof url === 'string' && URL.canParse(url) && new URL(url).host === wanted;
  });
}

function fieldOf(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (!current || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
