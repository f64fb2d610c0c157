import type { PageBlock, PageBlocks } from '../messages.js';
import { murmur32 } from '../murmur32.js';
import { BLOCK_TAGS, NON_TEXT_TAGS } from './text-tags.js';
import type { HtmlCollector } from './html-collector.js';
import { runHtmlPass } from './html-pass.js';

const SKIPPED_TAGS = new Set(NON_TEXT_TAGS);
const VOID_TAGS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const MAX_PATH_DEPTH = 64;
const MAX_CLASSES = 4;
const DIGITS = /\d+/g;
/** Blocks kept per page; a longer page adds nothing to its site's template. Its text is still counted. */
const MAX_BLOCKS = 2000;

/** Collects a page's blocks in a parsing pass; `result()` ends the last block, so it is called once, after the pass. */
export interface BlockCollector extends HtmlCollector {
  result(): PageBlocks;
}

/**
 * Cuts the page into blocks for dedup's site templates, as one collector of link extraction's
 * single pass: the page is parsed once, and the blocks travel to dedup on crawl.parsed.
 */
export function createBlockCollector(maxBlocks = MAX_BLOCKS): BlockCollector {
  const blocks: PageBlock[] = [];
  let textChars = 0;
  // Hash of the path so far, one per open element: each is the element's signature hashed with
  // its parent's path hash as the seed, so a block's path costs nothing to name.
  const pathHashes: number[] = [0];
  const signatures = new Map<string, string>();
  let skipped = 0;
  let text = '';

  const flush = () => {
    const collapsed = collapse(text);
    text = '';
    textChars += collapsed.length;
    if (collapsed === '' || blocks.length >= maxBlocks) return;
    blocks.push({ path: pathHashes.at(-1)!, masked: murmur32(maskText(collapsed), 0), text: collapsed });
  };

  return {
    open(name, attributes) {
      if (skipped > 0 || SKIPPED_TAGS.has(name)) {
        if (!VOID_TAGS.has(name)) skipped++;
        return;
      }
      if (BLOCK_TAGS.has(name)) flush();
      if (VOID_TAGS.has(name)) return;
      const raw = `${name} ${attributes.id ?? ''} ${attributes.class ?? ''}`;
      let sig = signatures.get(raw);
      if (sig === undefined) signatures.set(raw, (sig = signature(name, attributes)));
      pathHashes.push(pathHashes.length <= MAX_PATH_DEPTH ? murmur32(sig, pathHashes.at(-1)!) : pathHashes.at(-1)!);
    },
    text(data) {
      if (skipped === 0) text += data;
    },
    close(name) {
      if (VOID_TAGS.has(name)) return;
      if (skipped > 0) {
        skipped--;
        return;
      }
      if (BLOCK_TAGS.has(name)) flush();
      if (pathHashes.length > 1) pathHashes.pop();
    },
    result() {
      flush();
      return { blocks, textChars };
    },
  };
}

/**
 * The blocks of a page that did not come with them: a stored page read back, or a crawl.parsed
 * message written before ParsedPage v5. The same pass and collector as link extraction's.
 */
export function readBlocks(html: string): PageBlocks {
  const collector = createBlockCollector();
  runHtmlPass(html, [collector]);
  return collector.result();
}

function signature(tag: string, attributes: Record<string, string>): string {
  const id = attributes.id ? `#${attributes.id.replace(DIGITS, '#')}` : '';
  const classes = attributes.class
    ? attributes.class
        .split(/\s+/)
        .filter(Boolean)
        .slice(0, MAX_CLASSES)
        .map((name) => name.replace(DIGITS, '#'))
        .sort()
        .join('.')
    : '';
  return `${tag}${id}${classes ? `.${classes}` : ''}`;
}

/**
 * Whitespace as link extraction collapses it (a run of spaces, tabs, line breaks, nbsp and zero-width
 * spaces becomes one space; then trimmed), so a block's text equals its main-text line. A scan, not
 * two regex replaces: most text between tags is a line break and indentation.
 */
export function collapse(value: string): string {
  const length = value.length;
  let out = '';
  let from = 0;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    if (!isCollapsible(code) || (code === 0x20 && !isCollapsible(value.charCodeAt(i + 1)))) continue;
    out += `${value.slice(from, i)} `;
    let end = i + 1;
    while (end < length && isCollapsible(value.charCodeAt(end))) end++;
    from = end;
    i = end - 1;
  }
  return (from === 0 ? value : out + value.slice(from)).trim();
}

function isCollapsible(code: number): boolean {
  return (
    code === 0x20 ||
    code === 0x0a ||
    code === 0x0d ||
    code === 0x09 ||
    code === 0x0c ||
    code === 0xa0 ||
    code === 0x200b
  );
}

export function maskText(text: string): string {
  return text.toLowerCase().replace(DIGITS, '#');
}
