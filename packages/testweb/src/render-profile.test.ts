import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalizeUrl } from './canonical-url.js';
import { resolveOptions } from './options.js';
import { InvalidOptionsError } from './errors.js';
import { crawl } from './test-support/naive-crawler.js';
import { httpGet } from './test-support/http-get.js';
import { startTestWeb, type TestWeb } from './test-web.js';
import type { GroundTruth } from './truth/ground-truth.js';

const json = async (url: string) => JSON.parse((await httpGet(url)).body.toString('utf8')) as Record<string, unknown>;

describe('render profile', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  let origin: Record<string, string>;

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'render', seed: 3 });
    truth = web.groundTruth();
    origin = Object.fromEntries(web.hosts.map((h) => [h.name, h.origin]));
  });
  afterAll(() => web.close());

  it('has three fixed hosts and scales only the plain articles', () => {
    expect(web.hosts.map((h) => h.name)).toEqual(['app', 'mixed', 'inert']);
    expect(() => resolveOptions({ profile: 'render', hosts: 4 })).toThrow(InvalidOptionsError);
    expect(() => resolveOptions({ profile: 'render', pagesPerHost: 7 })).toThrow(InvalidOptionsError);
    expect(truth.pages.filter((url) => url.startsWith(`${origin.mixed}/article/`))).toHaveLength(24);
  });

  it('lists what only scripts reveal', () => {
    const { rendering } = truth;
    expect(rendering.jsRedirects).toEqual([
      { from: `${origin.app}/go/welcome`, to: `${origin.app}/welcome` },
      { from: `${origin.mixed}/go/special`, to: `${origin.mixed}/special-offer` },
    ]);
    expect(rendering.fetchedByScripts).toEqual([`${origin.app}/teasers/1`, `${origin.app}/teasers/2`]);
    expect(rendering.enhanced.map((e) => [new URL(e.url).pathname, e.trigger, e.steps, e.selector])).toEqual([
      ['/archive', 'click', 2, '#load-more'],
      ['/feed', 'scroll', 2, null],
      ['/live', 'load', 1, null],
    ]);
    expect(rendering.inert).toHaveLength(12);
    expect(rendering.offMachine.every((url) => !url.startsWith('http://127.'))).toBe(true);
    // Script redirects are redirects: their pages are not pages, their targets are.
    expect(truth.pages).not.toContain(`${origin.app}/go/welcome`);
    expect(truth.pages).toContain(`${origin.mixed}/special-offer`);
    // Links a script creates obey robots.txt like any other: the script's forbidden links and fetches are listed.
    expect(truth.disallowed).toEqual([`${origin.app}/private/settings`, `${origin.app}/private/track`]);
    for (const url of [...rendering.onlyRendered, ...rendering.shells.filter((u) => !u.includes('/go/'))])
      expect(truth.pages).toContain(url);
  });

  it('a crawler that runs no script finds exactly the pages not marked onlyRendered (and script-redirect pages it can reach)', async () => {
    const found = await crawl(web.seeds, truth.maxDepth, []);
    const redirectPages = new Set(truth.rendering.jsRedirects.map((r) => r.from));
    const plainPages = truth.pages.filter((url) => !truth.rendering.onlyRendered.includes(url));
    expect([...found.pages].filter((url) => !redirectPages.has(url)).sort()).toEqual(plainPages.sort());
    expect(found.pages).toContain(`${origin.mixed}/go/special`);
    expect(found.pages.size).toBeGreaterThan(30);
  });

  it('serves the data scripts read, and its links lead to the listed pages', async () => {
    const pages = new Set(truth.pages);
    const elsewhere = new Set([...truth.disallowed, ...truth.rendering.jsRedirects.map((r) => r.from)]);
    const home = await json(`${origin.app}/api/content?p=%2F`);
    const homeLinks = (home.links as { href: string }[]).map((l) => canonicalizeUrl(l.href, `${origin.app}/`)!);
    expect(homeLinks.every((url) => pages.has(url) || elsewhere.has(url))).toBe(true);
    expect(homeLinks).toContain(`${origin.app}/about`);
    expect(await json(`${origin.app}/api/content?p=%2Fgo%2Fwelcome`)).toEqual({ redirect: '/welcome' });
    const item3 = await json(`${origin.app}/api/content?p=%2Fitem%2F3`);
    expect((item3.offMachine as { url: string }[]).map((o) => o.url).sort()).toEqual(
      [...truth.rendering.offMachine].sort(),
    );

    const batches = await Promise.all([0, 1].map((step) => json(`${origin.mixed}/api/links?p=%2Ffeed&step=${step}`)));
    const feedLinks = batches.flatMap((batch) =>
      (batch.links as { href: string }[]).map((l) => canonicalizeUrl(l.href, `${origin.mixed}/feed`)!),
    );
    expect(feedLinks).toHaveLength(8);
    expect(feedLinks.every((url) => truth.rendering.onlyRendered.includes(url))).toBe(true);
  });

  it('serves its scripts as JavaScript and shells with no link at all', async () => {
    const script = await httpGet(`${origin.app}/static/app.js`);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body.toString()).toContain('/api/content?p=');
    const shell = (await httpGet(`${origin.app}/item/1`)).body.toString();
    expect(shell).toContain('<div id="app"></div>');
    expect(shell).not.toMatch(/<a\s/i);
  });
});
