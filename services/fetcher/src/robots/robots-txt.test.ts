import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, productTokenOf, ROBOTS_PARSE_LIMIT } from './robots-txt.js';

const allowed = (robots: string, path: string, agent = 'crawlerbot') =>
  parseRobotsTxt(robots, agent).isAllowed(new URL(path, 'http://example.test'));

describe('parseRobotsTxt (RFC 9309)', () => {
  const robots = [
    'User-agent: *',
    'Disallow: /private/',
    'Allow: /private/open$',
    'Disallow: /*?sort=',
    'Crawl-delay: 2',
    '',
    'User-agent: CrawlerBot',
    'Disallow: /only-for-others/',
    'Crawl-delay: 0.5',
    '',
    'Sitemap: http://example.test/sitemap.xml',
  ].join('\n');

  it('picks the group naming our product token, case-insensitively, over *', () => {
    expect(allowed(robots, '/private/x')).toBe(true);
    expect(allowed(robots, '/only-for-others/x')).toBe(false);
    expect(allowed(robots, '/private/x', 'otherbot')).toBe(false);
    expect(parseRobotsTxt(robots, 'crawlerbot').crawlDelaySeconds).toBe(0.5);
    expect(parseRobotsTxt(robots, 'otherbot').crawlDelaySeconds).toBe(2);
  });

  it('reads Request-rate as the time between requests, with units, ignoring a time-of-day range', () => {
    const rate = (line: string) => parseRobotsTxt(`User-agent: *\n${line}\n`, 'crawler').requestIntervalSeconds;
    expect(rate('Request-rate: 1/5')).toBe(5);
    expect(rate('Request-rate: 3/1m')).toBe(20);
    expect(rate('Request-rate: 1/10s 0600-0845')).toBe(10);
    expect(rate('Request-rate: 60/1h')).toBe(60);
    expect(rate('Request-rate: soon')).toBeNull();
    expect(rate('Request-rate: 0/5')).toBeNull();
    expect(rate('Crawl-delay: 2')).toBeNull();
  });

  it('lets the longest match decide and allow win a tie; supports * and $', () => {
    expect(allowed(robots, '/private/open', 'x')).toBe(true);
    expect(allowed(robots, '/private/open/more', 'x')).toBe(false);
    expect(allowed(robots, '/list?sort=asc', 'x')).toBe(false);
    expect(allowed(robots, '/list?page=2', 'x')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /a\nAllow: /a', '/a')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /*.pdf$', '/doc.pdf')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /*.pdf$', '/doc.pdf?x=1')).toBe(true);
  });

  it('merges every group that names the same agent and handles multi-agent groups', () => {
    const text = 'User-agent: a\nUser-agent: crawlerbot\nDisallow: /x\n\nUser-agent: crawlerbot\nDisallow: /y\n';
    expect(allowed(text, '/x')).toBe(false);
    expect(allowed(text, '/y')).toBe(false);
    expect(allowed(text, '/z')).toBe(true);
  });

  it('normalizes percent-encoding on both sides and encodes non-ASCII patterns', () => {
    expect(allowed('User-agent: *\nDisallow: /%7Ejoe/', '/~joe/index.html')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /caf%c3%a9', '/café')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /café', '/caf%C3%A9')).toBe(false);
  });

  it('accepts a BOM, CR and CRLF line endings, comments and junk lines', () => {
    const text = '\uFEFFUser-agent: * # everyone\r\nDisallow: /a\rnonsense line\nDisallow: /b # comment\n';
    expect(allowed(text, '/a')).toBe(false);
    expect(allowed(text, '/b')).toBe(false);
    expect(allowed(text, '/c')).toBe(true);
  });

  it('ignores an empty Disallow and always allows /robots.txt', () => {
    expect(allowed('User-agent: *\nDisallow:', '/anything')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /', '/robots.txt')).toBe(true);
  });

  it('collects Sitemap lines wherever they are', () => {
    expect(parseRobotsTxt(robots, 'x').sitemaps).toEqual(['http://example.test/sitemap.xml']);
  });

  it('parses only the first 500 KiB, counted in bytes, and drops a line cut in two', () => {
    const filler = `User-agent: *\n${'# padding\n'.repeat(ROBOTS_PARSE_LIMIT / 10)}`;
    expect(allowed(`${filler}Disallow: /late`, '/late')).toBe(true);
    // Two-byte characters: 500 KiB of bytes is reached long before 500 Ki characters.
    const wide = `User-agent: *\n${'# é\n'.repeat(ROBOTS_PARSE_LIMIT / 4 - 10)}Disallow: /second-half\n`;
    expect(wide.length).toBeLessThan(ROBOTS_PARSE_LIMIT);
    expect(allowed(wide, '/second-half')).toBe(true);
    const start = 'User-agent: *\nDisallow: /\n';
    const head = `${start}${'#'.repeat(ROBOTS_PARSE_LIMIT - start.length - 'Allow: /p'.length - 1)}\n`;
    const cut = parseRobotsTxt(Buffer.from(`${head}Allow: /public-only\n`), 'x');
    // Read whole, the cut line would be "Allow: /p", which would open /private.
    expect(cut.decide(new URL('http://example.test/private'))).toEqual({
      allowed: false,
      rule: { allow: false, pattern: '/', line: 2 },
    });
  });

  it('matches the product token of a user-agent line exactly, not as a prefix', () => {
    const text =
      'User-agent: crawlerbot\nDisallow: /a\n\nUser-agent: crawl\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n';
    expect(allowed(text, '/a', 'crawler')).toBe(true);
    expect(allowed(text, '/b', 'crawler')).toBe(true);
    expect(allowed(text, '/c', 'crawler')).toBe(false);
    expect(allowed('User-agent: Crawler/2.1\nDisallow: /v\n', '/v', 'crawler')).toBe(false);
    expect(productTokenOf('MyBot/1.0 (+https://me.example/bot)')).toBe('mybot');
  });

  it('says which rule decided, with its line', () => {
    const policy = parseRobotsTxt('User-agent: *\nDisallow: /private/\nAllow: /private/open$\n', 'x');
    expect(policy.decide(new URL('http://example.test/private/open'))).toEqual({
      allowed: true,
      rule: { allow: true, pattern: '/private/open$', line: 3 },
    });
    expect(policy.decide(new URL('http://example.test/private/x')).rule?.line).toBe(2);
    expect(policy.groupAgents).toEqual(['*']);
  });

  it('keeps only absolute http(s) Sitemap URLs', () => {
    expect(
      parseRobotsTxt('Sitemap: /relative.xml\nSitemap: ftp://x.test/s.xml\nSitemap: https://x.test/s.xml\n', 'x')
        .sitemaps,
    ).toEqual(['https://x.test/s.xml']);
  });

  it('matches a hostile wildcard pattern in linear-ish time', () => {
    const policy = parseRobotsTxt(`User-agent: *\nDisallow: /${'*a'.repeat(30)}*b$\n`, 'x');
    const started = performance.now();
    expect(policy.isAllowed(new URL(`http://example.test/${'a'.repeat(3000)}`))).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
