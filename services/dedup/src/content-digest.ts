import { hash } from 'node:crypto';

export type DigestAlgorithm = 'md5' | 'sha1' | 'sha256';

/** Pages with less visible text than this are compared by their raw bytes instead. */
const MIN_TEXT_FOR_TEXT_DIGEST = 32;

export function hexDigest(algorithm: DigestAlgorithm, data: Buffer | string): string {
  return hash(algorithm, data, 'hex');
}

/**
 * The content digest used for change and duplicate decisions: of the title and visible text, so
 * markup-only differences do not count; a page with almost no text falls back to its raw body,
 * or every empty page would look like a duplicate of every other.
 */
export function contentDigest(algorithm: DigestAlgorithm, title: string | null, text: string, rawBody: Buffer): string {
  if (text.length < MIN_TEXT_FOR_TEXT_DIGEST) return hexDigest(algorithm, rawBody);
  return hexDigest(algorithm, `${title ?? ''}\n${text}`);
}
