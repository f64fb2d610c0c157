import { randomBytes } from 'node:crypto';
import { parseCrawlJob } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { extractLimitsOf, loadLinkextractConfig } from './config.js';
import { createPageParser, type PageInput } from './page-parser.js';

// Hostile documents with the production defaults: each gets a bounded result and a named
// reason, in bounded time; nothing throws.
const config = loadLinkextractConfig({ env: {} });
const limits = extractLimitsOf(config);
const parse = createPageParser({
  job: parseCrawlJob({ scope: { mode: 'any' } }),
  limits,
  followNofollow: false,
  maxInputBytes: config.maxInputBytes,
});
const page = (body: Buffer | string, overrides: Partial<PageInput> = {}): PageInput => ({
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
  finalUrl: 'http://hostile.test/page',
  depth: 0,
  mediaType: 'text/html',
  charset: 'utf-8',
  headers: {},
  ...overrides,
});

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

describe('hostile HTML', () => {
  it('a 10 MB single-line document: input and text capped, in bounded time', async () => {
    const body = `<html><body><p>${'word '.repeat(2_100_000)}</p><a href="/after">after</a></body></html>`;
    expect(body.length).toBeGreaterThan(10_000_000);
    const { result, ms } = await timed(() => parse(page(body)));
    expect(result.warnings).toEqual(expect.arrayContaining(['input-capped', 'text-capped']));
    expect(result.text.length).toBeLessThanOrEqual(limits.maxTextChars);
    expect(result.links).toEqual([]);
    expect(ms).toBeLessThan(10_000);
  }, 30_000);

  it('100,000 links: the first are kept, the rest counted as capped', async () => {
    const body = `<ul>${Array.from({ length: 100_000 }, (_, i) => `<li><a href="/p/${i}">page ${i}</a></li>`).join('')}</ul>`;
    const { result, ms } = await timed(() => parse(page(body)));
    expect(result.links).toHaveLength(limits.maxLinks);
    expect(result.links.at(-1)!.url).toBe(`http://hostile.test/p/${limits.maxLinks - 1}`);
    expect(result.dropped.get('links-capped')).toBe(100_000 - limits.maxLinks);
    expect(result.warnings).toEqual(expect.arrayContaining(['links-capped', 'elements-capped', 'text-capped']));
    expect(result.text.length).toBeLessThanOrEqual(limits.maxTextChars);
    expect(ms).toBeLessThan(10_000);
  }, 30_000);

  it('a million elements: the tree stops at its element cap, the text still comes through', async () => {
    const { result, ms } = await timed(() => parse(page('<i>a</i> '.repeat(1_000_000))));
    expect(result.warnings).toEqual(expect.arrayContaining(['input-capped', 'elements-capped']));
    expect(result.text.length).toBeGreaterThan(100_000);
    expect(ms).toBeLessThan(10_000);
  }, 30_000);

  it('deep nesting: flattened past the tree cap, abandoned past the parser cap', async () => {
    const deep = await parse(
      page(
        `${'<div>'.repeat(2000)}<p>Deep text that should survive the flattening of the tree.</p><a href="/in">in</a>${'</div>'.repeat(2000)}`,
      ),
    );
    expect(deep.warnings).toEqual(['nesting-capped']);
    // Past the cap the <p> and the <a> live in one flattened element, so their text runs together.
    expect(deep.text).toBe('Deep text that should survive the flattening of the tree.in');
    expect(deep.links).toHaveLength(1);
    const { result, ms } = await timed(() =>
      parse(page(`${'<div>'.repeat(200_000)}never reached${'</div>'.repeat(200_000)}`)),
    );
    expect(result.warnings).toEqual(expect.arrayContaining(['nesting-abandoned']));
    expect(result.text).toBe('');
    expect(ms).toBeLessThan(5000);
  }, 30_000);

  it('a slow pathological document stops at the time budget', async () => {
    const slow = createPageParser({
      job: parseCrawlJob({}),
      limits: { ...limits, maxParseMs: 200 },
      followNofollow: false,
      maxInputBytes: config.maxInputBytes,
    });
    // Each stray close tag makes the parser scan its whole stack of open elements.
    const body = `${'<div>'.repeat(9000)}${'</span>'.repeat(1_000_000)}`;
    const { result, ms } = await timed(() => slow(page(body)));
    expect(result.warnings).toContain('parse-time-capped');
    expect(ms).toBeLessThan(3000);
  }, 30_000);

  it('broken markup of every kind parses without throwing', async () => {
    const soup = `<<<>>><a href=/one>one<a href='/two'>two</b></i><p <p>><a href="/three" <a href=/four>four
      <div </div><table><td><tr><a href="javascript:alert(1)">js</a><a href="http://[::1">bad</a><a href="   ">blank</a>
      <!-- <a href="/comment">c</a> --><script><a href="/script">s</a></script><![CDATA[ <a href="/cdata"> ]]><a href=/five>five`;
    const result = await parse(page(soup));
    expect(result.links.map((link) => new URL(link.url).pathname)).toEqual([
      '/one',
      '/two',
      '/three',
      '/page',
      '/five',
    ]);
    expect(Object.fromEntries(result.dropped)).toMatchObject({ scheme: 1, invalid: 1 });
  });

  it('binary served as text/html is refused with a reason', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(100_000)]);
    const result = await parse(page(png));
    expect(result).toMatchObject({ kind: 'binary', text: '', links: [], warnings: ['binary-content'] });
    const controlNoise = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i % 3 === 0 ? 0x01 : 0x41)));
    expect((await parse(page(controlNoise))).warnings).toEqual(['binary-content']);
  });

  it('invalid UTF-8 becomes replacement characters, not an error', async () => {
    const result = await parse(
      page(Buffer.concat([Buffer.from('<p>ok '), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(' fine</p>')])),
    );
    expect(result.text).toBe('ok \ufffd(\ufffd fine');
  });
});
