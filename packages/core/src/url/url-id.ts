import { createHash } from 'node:crypto';

/** Link base document id: hex SHA-1 of the canonical URL. Stable across processes and stores. */
export function urlId(canonical: string): string {
  return createHash('sha1').update(canonical).digest('hex');
}
