import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWeb, type GroundTruth, type TestWeb } from '@crawler/testweb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';
import type { ParseReport } from './check-parse.js';
import type { UrlReport } from './check-url.js';
import { capture } from '../test-support/capture-output.js';

const local = ['--allow-address', '127.0.0.1', '--user-agent', 'crawler-test/1.0 (+https://example.test/bot)'];

describe('crawler check url and check parse', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  const origin = (name: string) => truth.hosts.find((host) => host.name === name)!.origin;
  beforeAll(async () => {
    web = await startTestWeb({ seed: 2 });
    truth = web.groundTruth();
  });
  afterAll(() => web.close());
  afterEach(() => vi.restoreAllMocks());

  it('url: prints the canonical form and the SURT key, and refuses what cannot be crawled', async () => {
    const io = capture();
    expect(await runCli(['check', 'url', '--json', 'HTTP://News.Example.CO.UK:80/a/../b?utm_source=x&id=3#top'])).toBe(
      0,
    );
    expect(JSON.parse(io.out()) as UrlReport).toMatchObject({
      canonical: 'http://news.example.co.uk/b?id=3',
      surt: 'uk,co,example,news)/b?id=3',
      registrableDomain: 'example.co.uk',
    });
    expect(await runCli(['check', 'url', 'javascript:void(0)'])).toBe(1);
    expect(io.out()).toContain('refused    scheme');
    expect(await runCli(['check', 'url'])).toBe(2);
  });

  it('url: a fragment, empty or not, names the same URL as none', async () => {
    const reports: UrlReport[] = [];
    for (const argv of [
      ['http://h.test/about.html'],
      ['http://h.test/about.html#'],
      ['http://h.test/about.html#team'],
      ['--base', 'http://h.test/about.html', '#'],
    ]) {
      const io = capture();
      expect(await runCli(['check', 'url', '--json', ...argv])).toBe(0);
      reports.push(JSON.parse(io.out()) as UrlReport);
      vi.restoreAllMocks();
    }
    for (const report of reports)
      expect(report).toMatchObject({ canonical: 'http://h.test/about.html', urlId: reports[0]!.urlId });
  });

  it('url: resolves against --base and applies a job’s URL options and scope', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'check-url-'));
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ seeds: ['https://a.test/'], urls: { sortQuery: true } }));
    const io = capture();
    expect(
      await runCli([
        'check',
        'url',
        '--json',
        '--job',
        join(dir, 'job.json'),
        '--base',
        'https://a.test/dir/page',
        '../x?b=1&a=2',
      ]),
    ).toBe(0);
    expect(JSON.parse(io.out()) as UrlReport).toMatchObject({ canonical: 'https://a.test/x?a=2&b=1', scope: null });
  });

  it('parse: fetches a page like the fetcher and shows links, main text and metadata', async () => {
    const article = truth.pages.find((url) => url.startsWith(origin('news')) && /\/article\/\d+$/.test(url))!;
    const io = capture();
    expect(await runCli(['check', 'parse', '--json', ...local, article])).toBe(0);
    const report = JSON.parse(io.out()) as ParseReport;
    expect(report).toMatchObject({ kind: 'html', charset: 'utf-8', textMethod: 'scored' });
    expect(report.title).toMatch(/\| The Daily Ledger$/);
    expect(report.text).not.toMatch(/Advertisement|visitor no\./);
    expect(report.links.length).toBeGreaterThan(3);
    expect(
      report.links.every((link) => link.url.startsWith('http://127.0.0.1:') && typeof link.source === 'string'),
    ).toBe(true);
    expect(report.dropped).toBeTypeOf('object');
  });

  it('parse: reads a file against --base, with readable output by default', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'check-parse-')), 'page.html');
    writeFileSync(
      file,
      `<title>Local</title><script type="application/ld+json">{"@type":"Article","headline":"H"}</script><p>${'Words of a paragraph, with commas, long enough. '.repeat(3)}</p><a href="next" rel="next">Next</a><a href="/ad" rel="sponsored">Ad</a>`,
    );
    const io = capture();
    expect(await runCli(['check', 'parse', '--base', 'https://site.test/dir/', file])).toBe(0);
    expect(io.out()).toContain('title        Local');
    expect(io.out()).toMatch(/a +next +https:\/\/site\.test\/dir\/next {2}"Next"/);
    expect(io.out()).toContain('not passed on: nofollow 1');
    expect(io.out()).toContain('jsonld:headline: H');
  });

  it('parse: --markdown prints only the main content as Markdown, links absolute, tabs and all', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'check-parse-')), 'page.html');
    writeFileSync(
      file,
      `<title>Doc</title><main><h2>Usage</h2><p>${'Call it as the guide says, with care. '.repeat(3)}<a href="../ref.html">Reference</a></p>
       <ul><li>one</li><li>two</li></ul><table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
       <pre>all:\n\tmake \x1b[31m</pre></main>`,
    );
    const io = capture();
    expect(await runCli(['check', 'parse', '--markdown', '--base', 'https://site.test/dir/page.html', file])).toBe(0);
    expect(io.out()).toBe(
      [
        '## Usage',
        '',
        `${'Call it as the guide says, with care. '.repeat(3)}[Reference](https://site.test/ref.html)`,
        '',
        '- one',
        '- two',
        '',
        '| Name | Value |',
        '| --- | --- |',
        '| a | 1 |',
        '',
        '```',
        'all:',
        '\tmake \\x1b[31m',
        '```',
        '',
      ].join('\n'),
    );
    expect(await runCli(['check', 'parse', '--markdown', '--json', file])).toBe(2);
    expect(io.err()).toMatch(/--markdown or --json, not both/);
  });

  it('parse: splices frames on request, and exits 1 for a page that cannot be fetched', async () => {
    const io = capture();
    expect(await runCli(['check', 'parse', '--json', '--splice-frames', ...local, `${origin('legacy')}/`])).toBe(0);
    expect((JSON.parse(io.out()) as ParseReport).text).toContain(
      'Welcome to the home page of the Regional Rail Society',
    );
    expect(await runCli(['check', 'parse', ...local, `${origin('legacy')}/missing.html`])).toBe(1);
    expect(io.err()).toMatch(/was not fetched: gone \(HTTP 404\)/);
  });
});
