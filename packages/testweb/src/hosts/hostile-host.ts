import { addResource, createHost } from '../model/page-kit.js';
import type { HostModel, Resource } from '../model/web-model.js';
import { createCalendarRoute } from './calendar-trap.js';
import { gzipBombAnswer } from './edge-body-pages.js';
import { fixed, htmlAnswer, lazy, redirectAnswer } from './edge-answers.js';
import { invalidUtf8Html, manyLinksHtml, mixedEncodingHtml, oneLineHtml } from './hostile-bodies.js';
import { malformedLinksHtml } from './malformed-hrefs.js';

/** The hosts of the 'hostile' profile, in listening order. */
export const HOSTILE_HOST_NAMES = ['hostile'] as const;

/**
 * What a careful crawler ends with: the page (cut at its body cap if it keeps one), a timeout
 * (the answer never completes), headers too large to accept, a broken HTTP exchange, a redirect
 * loop, a redirect chain past any sane hop limit, a redirect to a Location that is no URL, or a
 * trap it stops expanding after a few pages.
 */
export type HostileOutcome =
  | 'page'
  | 'timeout'
  | 'headers-too-large'
  | 'protocol-error'
  | 'redirect-loop'
  | 'redirect-limit'
  | 'invalid-redirect'
  | 'trap';

export interface HostilePage {
  path: string;
  hazard: string;
  expect: HostileOutcome;
}

/** Body bytes /drip/body promises; at one byte per DRIP_INTERVAL_MS it would take 6.8 minutes. */
export const DRIP_BODY_BYTES = 4096;
export const DRIP_INTERVAL_MS = 100;
/** Redirects of /chain/1 before a page; far more than any crawler follows. */
export const CHAIN_HOPS = 20;
/** Size of the one header of /headers/huge-value; the Set-Cookie lines of /headers/set-cookie are a little more. */
export const HUGE_HEADER_BYTES = 100 * 1024;
/** Set-Cookie lines of /headers/set-cookie, and small headers of /headers/many. */
export const HEADER_LINES = 1000;
/** The first month of the calendar trap a crawl starts from. */
export const CALENDAR_START = '/calendar/2024/06';

/** Every hostile URL of the profile (paths on its one host) and the outcome a careful crawler records. */
export const HOSTILE_PAGES: HostilePage[] = [
  { path: '/endless', hazard: 'a body that never ends: a paragraph every 100 ms', expect: 'timeout' },
  { path: '/drip/body', hazard: `headers at once, then one body byte every ${DRIP_INTERVAL_MS} ms`, expect: 'timeout' },
  {
    path: '/drip/headers',
    hazard: `a status line, then one header byte every ${DRIP_INTERVAL_MS} ms`,
    expect: 'timeout',
  },
  { path: '/gzip-bomb', hazard: '50 MiB of "a" sent as 50 KiB of gzip', expect: 'page' },
  { path: '/one-line', hazard: '10 MiB of HTML on a single line', expect: 'page' },
  { path: '/links', hazard: '100,000 links on one page', expect: 'page' },
  { path: '/utf8/invalid', hazard: 'declared UTF-8, with invalid byte sequences', expect: 'page' },
  { path: '/utf8/mixed', hazard: 'declared UTF-8, with a windows-1252 paragraph inside', expect: 'page' },
  { path: '/utf8/mixed-undeclared', hazard: 'no charset anywhere, UTF-8 and windows-1252 mixed', expect: 'page' },
  {
    path: '/malformed-links',
    hazard: 'hrefs that are not URLs, other schemes, IPv6 and numeric hosts, a 10,000-character URL',
    expect: 'page',
  },
  { path: '/headers/huge-value', hazard: 'one header of 100 KiB', expect: 'headers-too-large' },
  {
    path: '/headers/set-cookie',
    hazard: `${HEADER_LINES} Set-Cookie lines, over 100 KiB in all`,
    expect: 'headers-too-large',
  },
  { path: '/headers/many', hazard: `${HEADER_LINES} small headers, about 20 KiB`, expect: 'page' },
  { path: '/wire/not-http', hazard: 'an SSH banner instead of an HTTP answer', expect: 'protocol-error' },
  {
    path: '/wire/short-body',
    hazard: 'Content-Length 10000, then 100 bytes and the connection closes',
    expect: 'protocol-error',
  },
  { path: '/loop/a', hazard: 'redirect loop /loop/a -> /loop/b -> /loop/a', expect: 'redirect-loop' },
  { path: '/loop/self', hazard: 'a redirect to itself', expect: 'redirect-loop' },
  { path: '/chain/1', hazard: `a chain of ${CHAIN_HOPS} redirects`, expect: 'redirect-limit' },
  { path: '/redirect/malformed', hazard: 'a redirect whose Location is not a URL', expect: 'invalid-redirect' },
  {
    path: CALENDAR_START,
    hazard: 'an archive calendar: every month links to the next and the previous one',
    expect: 'trap',
  },
];

const HTML_HEAD = 'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nConnection: close\r\n';
const wire = (head: string, drip = '', intervalMs = DRIP_INTERVAL_MS): Resource => ({
  kind: 'wire',
  answer: { head: Buffer.from(head, 'latin1'), drip: Buffer.from(drip, 'latin1'), chunkBytes: 1, intervalMs },
});
const html = (body: () => Buffer, headers: Record<string, string | string[]> = {}) =>
  lazy(() => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body: body() }));

/**
 * hostile: one host serving HOSTILE_PAGES, requested by path (the profile has no seeds). Pages
 * of the calendar trap are generated on demand; everything else is a fixed answer.
 */
export function buildHostileHost(origin: string): HostModel {
  const host = createHost('hostile', origin, { noise: false, validators: false });
  addResource(host, '/', fixed(htmlAnswer('Hostile web', 'Hostile answers live under this host.')));

  addResource(host, '/endless', { kind: 'endless' });
  const dripFrame = ['<!DOCTYPE html><title>Drip</title><p>', '</p>'];
  const dripBody = dripFrame.join('.'.repeat(DRIP_BODY_BYTES - dripFrame.join('').length));
  addResource(host, '/drip/body', wire(`${HTML_HEAD}Content-Length: ${dripBody.length}\r\n\r\n`, dripBody));
  addResource(
    host,
    '/drip/headers',
    wire('HTTP/1.1 200 OK\r\n', `Content-Type: text/html\r\nX-Padding: ${'.'.repeat(4000)}\r\n\r\n<p>late</p>`),
  );

  addResource(host, '/gzip-bomb', lazy(gzipBombAnswer));
  addResource(host, '/one-line', html(oneLineHtml));
  addResource(host, '/links', html(manyLinksHtml));
  addResource(host, '/utf8/invalid', html(invalidUtf8Html));
  addResource(
    host,
    '/utf8/mixed',
    html(() => mixedEncodingHtml(true)),
  );
  addResource(
    host,
    '/utf8/mixed-undeclared',
    lazy(() => ({ status: 200, headers: { 'content-type': 'text/html' }, body: mixedEncodingHtml(false) })),
  );
  addResource(
    host,
    '/malformed-links',
    html(() => malformedLinksHtml(origin)),
  );

  const page = () => htmlAnswer('Headers', 'The headers were the point.').body!;
  addResource(host, '/headers/huge-value', html(page, { 'x-padding': 'p'.repeat(HUGE_HEADER_BYTES) }));
  const cookie = (i: number) =>
    `c${String(i).padStart(4, '0')}=${'v'.repeat(Math.ceil(HUGE_HEADER_BYTES / HEADER_LINES) - 20)}; Path=/`;
  addResource(
    host,
    '/headers/set-cookie',
    html(page, { 'set-cookie': Array.from({ length: HEADER_LINES }, (_, i) => cookie(i)) }),
  );
  addResource(
    host,
    '/headers/many',
    html(page, Object.fromEntries(Array.from({ length: HEADER_LINES }, (_, i) => [`x-h${i}`, 'v'.repeat(8)]))),
  );

  addResource(host, '/wire/not-http', wire('SSH-2.0-OpenSSH_9.6\r\n'));
  addResource(
    host,
    '/wire/short-body',
    wire(`${HTML_HEAD}Content-Length: 10000\r\n\r\n<!DOCTYPE html><title>Short</title><p>${'.'.repeat(62)}`),
  );

  addResource(host, '/loop/a', fixed(redirectAnswer(302, '/loop/b')));
  addResource(host, '/loop/b', fixed(redirectAnswer(301, '/loop/a')));
  addResource(host, '/loop/self', fixed(redirectAnswer(307, '/loop/self')));
  for (let hop = 1; hop <= CHAIN_HOPS; hop++)
    addResource(host, `/chain/${hop}`, fixed(redirectAnswer(302, `/chain/${hop + 1}`)));
  addResource(
    host,
    `/chain/${CHAIN_HOPS + 1}`,
    fixed(htmlAnswer('End of the chain', `${CHAIN_HOPS} redirects to get here.`)),
  );
  addResource(host, '/redirect/malformed', fixed(redirectAnswer(302, 'http://exa mple.com/')));

  host.route = createCalendarRoute(origin);
  host.traps.push({
    prefix: `${origin}/calendar/`,
    description: 'Archive calendar: every month links to the previous and the next month, without end.',
  });
  return host;
}
