import type { HtmlCollector } from '@crawler/core/html';

/** JSON-LD kept per page: enough for any real page's metadata, bounded for hostile ones. */
const MAX_JSON_LD_CHARS = 512 * 1024;

/** Collects the text of `<script type="application/ld+json">` blocks during the pass. */
export function createJsonLdCollector(warn: (reason: string) => void): HtmlCollector & { blocks: string[] } {
  const blocks: string[] = [];
  let current: string[] | null = null;
  let total = 0;
  return {
    blocks,
    open(name, attributes) {
      if (name === 'script' && (attributes.type ?? '').trim().toLowerCase() === 'application/ld+json') current = [];
    },
    text(data) {
      if (!current) return;
      if (total + data.length > MAX_JSON_LD_CHARS) {
        warn('jsonld-capped');
        current = null;
        return;
      }
      total += data.length;
      current.push(data);
    },
    close(name) {
      if (name === 'script' && current) {
        blocks.push(current.join(''));
        current = null;
      }
    },
  };
}
