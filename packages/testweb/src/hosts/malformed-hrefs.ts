/**
 * What an href of /malformed-links is: not a URL at all (WHATWG parsing fails), a URL a web crawler
 * does not fetch (javascript:, mailto:...), an http URL on another host (IPv6 literals, userinfo
 * tricks: out of a seeds-only scope), one longer than any sane URL limit, or an odd spelling of a
 * URL on this very host (which answers 404).
 */
export type MalformedHrefKind = 'invalid' | 'not-http' | 'other-host' | 'too-long' | 'same-host';

export interface MalformedHref {
  href: string;
  kind: MalformedHrefKind;
}

/** Length of the too-long href's path. */
export const LONG_HREF_CHARS = 10_000;

/** The hrefs of /malformed-links on the host at `origin` (http://127.0.0.1:<port>). */
export function malformedHrefs(origin: string): MalformedHref[] {
  const port = new URL(origin).port;
  return [
    { href: 'http://[::1', kind: 'invalid' },
    { href: 'http://exa mple.com/', kind: 'invalid' },
    { href: 'http://%zz/', kind: 'invalid' },
    { href: 'http://', kind: 'invalid' },
    { href: 'http://256.256.256.256/', kind: 'invalid' },
    { href: `http://127.0.0.1:99999/`, kind: 'invalid' },
    { href: 'http://[fe80::1%25eth0]/', kind: 'invalid' },
    { href: 'javascript:alert(1)', kind: 'not-http' },
    { href: 'mailto:webmaster@hostile.invalid', kind: 'not-http' },
    { href: 'data:text/html,<p>inline</p>', kind: 'not-http' },
    { href: 'file:///etc/passwd', kind: 'not-http' },
    { href: `ftp://127.0.0.1:${port}/`, kind: 'not-http' },
    { href: `http://[::1]:${port}/malformed/ipv6`, kind: 'other-host' },
    { href: `http://[::ffff:127.0.0.1]:${port}/malformed/ipv4-mapped`, kind: 'other-host' },
    { href: `http://127.0.0.1:${port}@[::1]/malformed/userinfo`, kind: 'other-host' },
    { href: `http://localhost:${port}/malformed/localhost`, kind: 'other-host' },
    { href: `/malformed/long/${'a'.repeat(LONG_HREF_CHARS)}`, kind: 'too-long' },
    { href: '/malformed/with space', kind: 'same-host' },
    { href: '/malformed/bad-escape-%zz', kind: 'same-host' },
    { href: '/malformed/cut-utf8-%E2%82', kind: 'same-host' },
    { href: '\\malformed\\backslashes', kind: 'same-host' },
    { href: ' \t/malformed/padded\n ', kind: 'same-host' },
    { href: `HTTP://127.0.0.1:${port}/malformed/upper-scheme`, kind: 'same-host' },
    { href: `http://0x7f.1:${port}/malformed/hex-ip`, kind: 'same-host' },
    { href: `http://2130706433:${port}/malformed/decimal-ip`, kind: 'same-host' },
    { href: `//127.0.0.1:${port}/malformed/scheme-relative`, kind: 'same-host' },
  ];
}

/** The page: every href in its own anchor, attribute values escaped as HTML requires. */
export function malformedLinksHtml(origin: string): Buffer {
  const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const items = malformedHrefs(origin).map(
    ({ href, kind }, i) => `<li><a href="${escape(href)}">${kind} ${i}</a></li>`,
  );
  return Buffer.from(
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Malformed links</title></head><body><p>Links no crawler should trust.</p><ul>${items.join('')}</ul></body></html>`,
  );
}
