/** http(s) URLs and www. addresses as written in prose; stops at whitespace, quotes and angle brackets. */
const URL_IN_TEXT = /\b(?:https?:\/\/|www\.)[^\s<>"'`{}|\\^\u00a0\u2000-\u200b\u3000]{1,2048}/gi;
const TRAILING = new Set([...'.,;:!?…»”’)]}*']);
const HAS_HOST = /^https?:\/\/(?:[^/?#]*[a-z0-9-]\.[a-z]|\d|localhost)/i;

/**
 * URLs written as plain text. Trailing punctuation belongs to the sentence, not the URL, except a
 * closing parenthesis that balances one inside the URL (Wikipedia-style links). `www.` forms get
 * an http:// scheme. At most `max` are returned.
 */
export function findTextUrls(text: string, max: number): string[] {
  const found: string[] = [];
  if (!/https?:\/\/|www\./i.test(text)) return found;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    if (found.length >= max) break;
    let url = trimTrailing(match[0]);
    if (/^www\./i.test(url)) url = `http://${url}`;
    if (HAS_HOST.test(url)) found.push(url);
  }
  return found;
}

function trimTrailing(url: string): string {
  let end = url.length;
  while (end > 0) {
    const char = url[end - 1]!;
    if (!TRAILING.has(char)) break;
    if (char === ')' && count(url, '(', end) >= count(url, ')', end)) break;
    end--;
  }
  return url.slice(0, end);
}

function count(text: string, char: string, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (text[i] === char) n++;
  return n;
}
