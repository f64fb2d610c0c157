import { encodingName, xmlDeclaredCharset } from '@crawler/core';
import { detectCharset } from './detect-charset.js';
import { prescanMetaCharset } from './prescan.js';

export type CharsetSource = 'bom' | 'header' | 'xml-declaration' | 'meta' | 'detected' | 'default';

export interface ChosenCharset {
  /** WHATWG encoding name. */
  charset: string;
  source: CharsetSource;
}

/**
 * Chooses the charset a page is decoded with, in the HTML standard's order: byte order mark, the
 * Content-Type header's charset (if it names a known encoding), the XML declaration of a
 * document that starts with one (whatever its type), a <meta> declaration found by the prescan, then detection from the bytes; windows-1252,
 * the standard's default for undeclared pages, when nothing else says.
 */
export function chooseCharset(body: Buffer, contentTypeHeader: string | undefined): ChosenCharset {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { charset: 'utf-8', source: 'bom' };
  if (body[0] === 0xfe && body[1] === 0xff) return { charset: 'utf-16be', source: 'bom' };
  if (body[0] === 0xff && body[1] === 0xfe) return { charset: 'utf-16le', source: 'bom' };
  const fromHeader = contentTypeHeader?.match(/;\s*charset\s*=\s*["']?([^;"'\s]+)/i)?.[1];
  const headerCharset = fromHeader ? encodingName(fromHeader) : null;
  if (headerCharset) return { charset: headerCharset, source: 'header' };
  // A document that starts with an XML declaration is XML whatever its server calls it (feeds
  // and XHTML are often served as text/html or with no type), and the declaration is its own word.
  const xmlCharset = xmlDeclaredCharset(body);
  if (xmlCharset) return { charset: xmlCharset, source: 'xml-declaration' };
  const metaCharset = prescanMetaCharset(body);
  if (metaCharset) return { charset: metaCharset, source: 'meta' };
  const detected = detectCharset(body);
  if (detected) return { charset: detected, source: 'detected' };
  return { charset: 'windows-1252', source: 'default' };
}
