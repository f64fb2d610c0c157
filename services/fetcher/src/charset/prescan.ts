import { encodingName } from '@crawler/core';

const PRESCAN_BYTES = 1024;

/**
 * The HTML standard's prescan for a <meta> encoding declaration in the first 1024 bytes: skips
 * comments and other markup, reads `<meta charset>` and `<meta http-equiv="content-type"
 * content="...; charset=...">` (a `content` without that http-equiv does not count). UTF-16
 * becomes UTF-8: a page that states it in ASCII bytes cannot be UTF-16.
 */
export function prescanMetaCharset(body: Buffer): string | null {
  const text = body.subarray(0, PRESCAN_BYTES).toString('latin1');
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 2);
      if (end < 0) return null;
      i = end + 3;
    } else if (/^<meta[\s/]/i.test(text.slice(i, i + 6))) {
      const found = readMeta(text, i + 5);
      if (found.charset) return found.charset;
      i = found.end;
    } else if (/^<\/?[a-z]/i.test(text.slice(i, i + 3))) {
      // Any other tag: skip its name and attributes, so a "charset" inside them is not mistaken for one.
      const nameEnd = text.slice(i).search(/[\s>]/);
      if (nameEnd < 0) return null;
      i += nameEnd;
      for (let attribute = readAttribute(text, i); attribute; attribute = readAttribute(text, i)) i = attribute.end;
      i++;
    } else if (/^<[!/?]/.test(text.slice(i, i + 2))) {
      const end = text.indexOf('>', i);
      if (end < 0) return null;
      i = end + 1;
    } else {
      i++;
    }
  }
  return null;
}

function readMeta(text: string, start: number): { charset: string | null; end: number } {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | null = null;
  let charset: string | null = null;
  let i = start;
  for (let attribute = readAttribute(text, i); attribute; attribute = readAttribute(text, i)) {
    i = attribute.end;
    if (seen.has(attribute.name)) continue;
    seen.add(attribute.name);
    if (attribute.name === 'http-equiv' && attribute.value.toLowerCase() === 'content-type') gotPragma = true;
    else if (attribute.name === 'content' && charset === null) {
      const fromContent = charsetFromContent(attribute.value);
      if (fromContent !== null) {
        charset = encodingName(fromContent);
        needPragma = true;
      }
    } else if (attribute.name === 'charset') {
      charset = encodingName(attribute.value);
      needPragma = false;
    }
  }
  if (needPragma === null || (needPragma && !gotPragma) || charset === null) return { charset: null, end: i };
  return { charset: charset.startsWith('utf-16') ? 'utf-8' : charset, end: i };
}

/** The HTML standard's "get an attribute" on a latin1 view: name lowercased, value unquoted. */
function readAttribute(text: string, start: number): { name: string; value: string; end: number } | null {
  let i = start;
  while (i < text.length && /[\s/]/.test(text[i]!)) i++;
  if (i >= text.length || text[i] === '>') return null;
  let name = '';
  while (i < text.length && !/[\s/>=]/.test(text[i]!)) name += text[i++]!.toLowerCase();
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] !== '=') return { name, value: '', end: i };
  i++;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  const quote = text[i];
  if (quote === '"' || quote === "'") {
    const close = text.indexOf(quote, i + 1);
    if (close < 0) return null;
    return { name, value: text.slice(i + 1, close), end: close + 1 };
  }
  let value = '';
  while (i < text.length && !/[\s>]/.test(text[i]!)) value += text[i++]!;
  return { name, value, end: i };
}

/** "text/html; charset=gbk" -> "gbk" (the standard's extraction from a meta content attribute). */
function charsetFromContent(content: string): string | null {
  const match = content.match(/charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i);
  return match ? (match[1] ?? match[2] ?? match[3] ?? null) : null;
}
