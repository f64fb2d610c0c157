import { collapseWhitespace } from '../content/render-text.js';
import type { HtmlCollector } from '@crawler/core/html';

const MAX_VALUE_CHARS = 1000;
const MAX_VALUES = 20;
const MAX_FIELDS = 100;
/** Properties whose text is the article itself; main-text extraction already covers it. */
const SKIPPED_PROPERTIES = new Set(['articlebody', 'text', 'reviewbody']);

/**
 * Microdata, lite: the properties of top-level items (`itemscope` not inside another item) become
 * `microdata:<itemprop>` fields, with the value from content, href, src, datetime or value, else
 * the element's text. Nested items are not modelled; the item's type is `microdata:@type`.
 */
export function createMicrodataCollector(): HtmlCollector & { fields: Map<string, string[]> } {
  const fields = new Map<string, string[]>();
  // Depths of the open itemscope elements.
  const scopes: number[] = [];
  const captures: { key: string; depth: number; parts: string[]; chars: number }[] = [];
  let depth = 0;

  const add = (key: string, value: string) => {
    const clean = collapseWhitespace(value).slice(0, MAX_VALUE_CHARS);
    if (!clean) return;
    const list = fields.get(key);
    if (list) {
      if (list.length < MAX_VALUES) list.push(clean);
    } else if (fields.size < MAX_FIELDS) fields.set(key, [clean]);
  };

  return {
    fields,
    open(name, attributes) {
      depth++;
      const prop = attributes.itemprop;
      // Top level: exactly one item open, and this element does not start a nested one.
      if (prop !== undefined && scopes.length === 1 && attributes.itemscope === undefined) {
        for (const property of prop.trim().split(/\s+/)) {
          const key = `microdata:${property}`;
          if (SKIPPED_PROPERTIES.has(property.toLowerCase())) continue;
          const value =
            attributes.content ??
            (name === 'a' || name === 'link' || name === 'area' ? attributes.href : undefined) ??
            attributes.src ??
            attributes.datetime ??
            attributes.value;
          if (value !== undefined) add(key, value);
          else captures.push({ key, depth, parts: [], chars: 0 });
        }
      }
      if (attributes.itemscope !== undefined) {
        if (scopes.length === 0 && attributes.itemtype)
          add('microdata:@type', attributes.itemtype.trim().split(/[/#]/).pop() ?? attributes.itemtype);
        scopes.push(depth);
      }
    },
    text(data) {
      for (const capture of captures) {
        if (capture.chars < MAX_VALUE_CHARS) {
          capture.parts.push(data);
          capture.chars += data.length;
        }
      }
    },
    close() {
      while (captures.length > 0 && captures[captures.length - 1]!.depth === depth) {
        const capture = captures.pop()!;
        add(capture.key, capture.parts.join(''));
      }
      if (scopes.length > 0 && scopes[scopes.length - 1] === depth) scopes.pop();
      depth--;
    },
  };
}
