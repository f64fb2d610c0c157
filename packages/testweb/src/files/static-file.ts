import type { Resource } from '../model/web-model.js';

/** A non-HTML resource whose bytes never change. */
export function staticFile(contentType: string, body: Buffer | string): Resource {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return { kind: 'file', contentType, body: () => bytes };
}
