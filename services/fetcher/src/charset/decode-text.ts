import iconv from 'iconv-lite';

/**
 * Decodes bytes in a WHATWG-named charset. iconv-lite first: Node 20's TextDecoder reads
 * windows-1252 as Latin-1 (nodejs/node#56542), which garbles euro signs and curly quotes.
 */
export function decodeText(bytes: Buffer, charset: string): string {
  if (iconv.encodingExists(charset)) return iconv.decode(bytes, charset);
  return new TextDecoder(charset).decode(bytes);
}
