import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';
import { capture } from '../test-support/capture-output.js';

describe('crawler check', () => {
  let web: TestWeb;
  const at = (name: string, path: string) => `${web.hosts.find((host) => host.name === name)!.origin}${path}`;
  beforeAll(async () => {
    web = await startTestWeb({ profile: 'edge' });
  });
  afterAll(() => web.close());
  afterEach(() => vi.restoreAllMocks());

  it('lists its checks, and refuses unknown ones and missing URLs with exit code 2', async () => {
    const io = capture();
    expect(await runCli(['check', '--help'])).toBe(0);
    expect(io.out()).toMatch(/robots .*\n.*fetch /);
    expect(await runCli(['check', 'dns'])).toBe(2);
    expect(await runCli(['check', 'robots'])).toBe(2);
    expect(await runCli(['check', 'fetch', 'ftp://x.test/'])).toBe(2);
    expect(io.err()).toMatch(/unknown check "dns"[\s\S]*at least one URL[\s\S]*not an http\(s\) URL/);
  });

  it('robots: judges URLs by a site’s own robots.txt, naming the deciding rule and its line', async () => {
    const io = capture();
    const code = await runCli([
      'check',
      'robots',
      '--json',
      '--allow-address',
      '127.0.0.1',
      '--agent',
      'Crawler/3.0 (+https://example.test/bot)',
      at('robots-odd', '/private/open'),
      at('robots-odd', '/merged'),
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(io.out()) as {
      agent: string;
      robots: {
        result: string;
        crawlDelaySeconds: number;
        sitemaps: string[];
        urls: { url: string; allowed: boolean; rule: { line: number; pattern: string } }[];
      }[];
    };
    expect(report.agent).toBe('crawler');
    expect(report.robots[0]).toMatchObject({ result: 'file', crawlDelaySeconds: 0.3 });
    expect(report.robots[0]!.sitemaps).toHaveLength(2);
    expect(report.robots[0]!.urls).toEqual([
      {
        url: at('robots-odd', '/private/open'),
        allowed: true,
        rule: { allow: true, pattern: '/private/open$', line: 8 },
      },
      { url: at('robots-odd', '/merged'), allowed: false, rule: { allow: false, pattern: '/merged', line: 20 } },
    ]);
  });

  it('robots: reads a local file, and exits 0 when every URL is allowed', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'check-robots-')), 'robots.txt');
    writeFileSync(file, 'User-agent: otherbot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n');
    const io = capture();
    expect(
      await runCli(['check', 'robots', '--robots', file, 'https://example.test/a', 'https://example.test/b']),
    ).toBe(0);
    expect(io.out()).toContain('allowed     https://example.test/a  (no rule matched)');
    expect(await runCli(['check', 'robots', '--robots', file, '--agent', 'otherbot', 'https://example.test/a'])).toBe(
      1,
    );
    expect(io.out()).toContain('DISALLOWED  https://example.test/a  (line 2: Disallow: /)');
  });

  it('fetch: shows outcome, hops, charset and how it was chosen, bytes and timings', async () => {
    const io = capture();
    expect(
      await runCli([
        'check',
        'fetch',
        '--json',
        '--allow-address',
        '127.0.0.1',
        '--max-redirects',
        '3',
        at('http', '/chain/1'),
      ]),
    ).toBe(0);
    const report = JSON.parse(io.out());
    expect(report).toMatchObject({
      outcome: 'ok',
      httpStatus: 200,
      finalUrl: at('http', '/chain/end'),
      contentType: 'text/html',
      charset: 'utf-8',
      charsetSource: 'header',
      title: 'End of chain',
      address: '127.0.0.1',
    });
    expect(report.hops.map((hop: { status: number }) => hop.status)).toEqual([301, 302, 307, 200]);
    expect(report.bytes.body).toBeGreaterThan(0);
    expect(report.timings).toEqual({
      dnsMs: expect.any(Number),
      headersMs: expect.any(Number),
      bodyMs: expect.any(Number),
      totalMs: expect.any(Number),
    });
    expect(report.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('fetch: human output for a detected charset, and exit 1 for a refused address', async () => {
    const io = capture();
    expect(await runCli(['check', 'fetch', '--allow-address', '127.0.0.1', at('http', '/charset/euc-kr-none')])).toBe(
      0,
    );
    expect(io.out()).toMatch(/charset {5}euc-kr \(from detected\)/);
    expect(await runCli(['check', 'fetch', at('http', '/')])).toBe(1);
    expect(io.out()).toMatch(/outcome {5}blocked_address \[BLOCKED_ADDRESS\]/);
    expect(web.requests.count(at('http', '/'))).toBe(0);
  });
});
