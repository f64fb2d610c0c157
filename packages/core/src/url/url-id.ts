import { hash } from 'node:crypto';

/**
 * Link base document id: hex SHA-1 of the canonical URL. Stable across processes and stores.
 * One-shot `hash` is a third of createHash's cost on a URL, and every outlink takes one.
 */
export function urlId(canonical: string): string {
  return hash('sha1', canonical, 'hex');
}
