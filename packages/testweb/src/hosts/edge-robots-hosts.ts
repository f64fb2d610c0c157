import { addResource, createHost } from '../model/page-kit.js';
import type { HostModel } from '../model/web-model.js';
import { fixed, htmlAnswer, redirectAnswer } from './edge-answers.js';

/** Bytes of padding after which robots-odd states one more rule: past the 500 KiB a parser must read. */
export const ROBOTS_ODD_PADDING_BYTES = 520 * 1024;

/**
 * robots-odd: a valid but awkward robots.txt. UTF-8 BOM; CR, LF and CRLF line endings; a group
 * naming "Crawler/2.1" (product token "crawler") merged with a later "CRAWLER" group; a
 * "crawlerbot" group that must not apply to "crawler"; percent-encoded and non-ASCII rules,
 * `*` and `$`; Crawl-delay 0.3; two Sitemap lines; and, after 520 KiB of comments, a rule that a
 * parser honouring the 500 KiB limit never sees.
 */
function robotsOddText(origin: string): Buffer {
  const head = [
    '# robots.txt of an odd but valid site\r',
    'User-agent: *\rDisallow: /\r',
    '\r\n',
    'User-agent: Crawler/2.1\r\n',
    'User-agent: otherbot\n',
    'Disallow: /private/\n',
    'Allow: /private/open$\n',
    'Disallow: /%7Euser/\n',
    'Disallow: /café\n',
    'Disallow: /*.pdf$\n',
    'Crawl-delay: 0.3\n',
    `Sitemap: ${origin}/sitemap-a.xml\n`,
    '\n',
    'User-agent: crawlerbot\n',
    'Disallow: /for-crawler/\n',
    '\n',
    `Sitemap: ${origin}/sitemap-b.xml\n`,
    'User-agent: CRAWLER\n',
    'Disallow: /merged\n',
    '\n',
  ].join('');
  const padLine = '# padding: robots.txt files past 500 KiB are cut by crawlers\n';
  const padding = padLine.repeat(Math.ceil(ROBOTS_ODD_PADDING_BYTES / padLine.length));
  const tail = 'User-agent: crawler\nDisallow: /late\n';
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(head + padding + tail, 'utf8')]);
}

function pages(host: HostModel, paths: string[]): void {
  for (const path of paths)
    addResource(host, path, fixed(htmlAnswer(`${host.name} ${path}`, `Page ${path} of ${host.name}.`)));
}

/** The edge hosts that test a fetcher's robots.txt handling, one robots.txt behaviour per host. */
export function buildEdgeRobotsHosts(
  origins: Record<'robots-odd' | 'robots-error' | 'robots-redirect' | 'robots-loop' | 'robots-denied', string>,
): HostModel[] {
  const odd = createHost('robots-odd', origins['robots-odd'], { noise: false, validators: false });
  const oddRobots = robotsOddText(odd.origin);
  addResource(odd, '/robots.txt', { kind: 'file', contentType: 'text/plain; charset=utf-8', body: () => oddRobots });
  // Allowed for "crawler": /, /private/open, /for-crawler/x, /late, /doc.pdf?x=1. The others are disallowed.
  pages(odd, [
    '/',
    '/private/open',
    '/private/open/more',
    '/private/x',
    '/~user/home',
    '/%7Euser/home',
    '/caf%C3%A9',
    '/doc.pdf',
    '/doc.pdf?x=1',
    '/for-crawler/x',
    '/merged',
    '/late',
  ]);

  const error = createHost('robots-error', origins['robots-error'], { noise: false, validators: false });
  addResource(
    error,
    '/robots.txt',
    fixed({ status: 503, headers: { 'content-type': 'text/plain' }, body: Buffer.from('maintenance\n') }),
  );
  pages(error, ['/']);

  // robots.txt -> 301 -> 302 -> 307 -> the file, on the same host: four hops, within RFC 9309's five.
  const redirect = createHost('robots-redirect', origins['robots-redirect'], { noise: false, validators: false });
  addResource(redirect, '/robots.txt', fixed(redirectAnswer(301, '/robots-1.txt')));
  addResource(redirect, '/robots-1.txt', fixed(redirectAnswer(302, `${redirect.origin}/robots-2.txt`)));
  addResource(redirect, '/robots-2.txt', fixed(redirectAnswer(307, '/policy/robots.txt')));
  addResource(
    redirect,
    '/policy/robots.txt',
    fixed({
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: Buffer.from('User-agent: *\nDisallow: /blocked\n'),
    }),
  );
  pages(redirect, ['/', '/open', '/blocked']);

  // A robots.txt redirect loop: past five hops the file counts as unavailable (4xx), so all is allowed.
  const loop = createHost('robots-loop', origins['robots-loop'], { noise: false, validators: false });
  addResource(loop, '/robots.txt', fixed(redirectAnswer(302, '/robots-again.txt')));
  addResource(loop, '/robots-again.txt', fixed(redirectAnswer(302, '/robots.txt')));
  pages(loop, ['/', '/anything']);

  // 401 on robots.txt: RFC 9309 treats every 4xx as "unavailable", which allows everything.
  const denied = createHost('robots-denied', origins['robots-denied'], { noise: false, validators: false });
  addResource(denied, '/robots.txt', fixed({ status: 401, headers: { 'www-authenticate': 'Basic realm="staff"' } }));
  pages(denied, ['/', '/anything']);

  return [odd, error, redirect, loop, denied];
}
