import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canonicalUrl,
  Topics,
  type Emission,
  type FetchResult,
  type Outlinks,
  type StageContext,
  type StatusUpdate,
} from '@crawler/core';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { startTestWeb, type GroundTruth, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrl } from '../fetch-url.js';
import { pageSignals } from './page-signals.js';
import { plainPageOf } from './render-emissions.js';
import { createRenderRig, frontierRequest, type RenderRig } from './render-test-kit.js';

const context = {} as StageContext;
const fetchedOf = (emissions: Emission[]) =>
  emissions.find((e) => e.topic === Topics.fetched)?.value as FetchResult | undefined;
const statusOf = (emissions: Emission[]) =>
  emissions.find((e) => e.topic === Topics.status)?.value as StatusUpdate | undefined;
const linksOf = (page: FetchResult) => pageSignals(page.body.toString('utf8'), page.url).links;

// Browsers on a shared two-core machine: a render may take seconds, so tests get a minute.
describe('rendering in the fetcher stage, on the render test web', { timeout: 60_000 }, () => {
  let web: TestWeb;
  let truth: GroundTruth;
  let origin: Record<string, string>;
  const rigs: RenderRig[] = [];
  const rigWith = (overrides: Record<string, unknown> = {}, store = new MemoryFingerprintStore()) => {
    const rig = createRenderRig(overrides, store);
    rigs.push(rig);
    return rig;
  };
  const handle = (rig: RenderRig, url: string) => rig.stage.handle(frontierRequest(url), context);
  /** The canonical targets of the links a page's script creates, from the truth's point of view. */
  const pagesUnder = (prefix: string) => truth.rendering.onlyRendered.filter((url) => url.startsWith(prefix));

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'render', seed: 5 });
    truth = web.groundTruth();
    origin = Object.fromEntries(web.hosts.map((h) => [h.name, h.origin]));
  });
  afterAll(async () => {
    for (const rig of rigs) await rig.close();
    await web?.close();
  });

  it('renders a script shell: the DOM with the links its script built is the body, flagged as rendered', async () => {
    const rig = rigWith();
    const page = fetchedOf(await handle(rig, `${origin.app}/`))!;
    expect(page.meta).toMatchObject({ rendered: 'true', renderReason: 'shell' });
    expect(page).toMatchObject({
      charset: 'utf-8',
      charsetSource: 'rendered',
      contentType: 'text/html',
      truncated: false,
    });
    const links = linksOf(page);
    for (const url of [...pagesUnder(`${origin.app}/item/`), `${origin.app}/about`]) expect(links).toContain(url);
    expect(page.body.toString()).toContain('<main><h1>Atlas</h1>');
    // Script, stylesheet and data requests were made through the fetcher; the document was not fetched twice.
    expect(Number(page.meta.renderRequests)).toBeGreaterThanOrEqual(3);
    expect(web.requests.count(`${origin.app}/`)).toBe(1);
  });

  it('never renders a plain page, although rendering is on and it carries scripts', async () => {
    const rig = rigWith();
    const scripted = new Set([
      ...truth.rendering.shells,
      ...truth.rendering.inert,
      ...truth.rendering.enhanced.map((e) => e.url),
    ]);
    const plain = truth.pages.filter((url) => !scripted.has(url));
    expect(plain.length).toBeGreaterThan(40);
    for (const url of plain) {
      const page = fetchedOf(await handle(rig, url))!;
      expect(page.meta.rendered, url).toBeUndefined();
      expect(page.charsetSource, url).not.toBe('rendered');
    }
    expect(rig.renderer.metrics.results.size).toBe(0);
  });

  it('records a script redirect as a redirect to its target, with no page', async () => {
    const rig = rigWith();
    for (const { from, to } of truth.rendering.jsRedirects) {
      const emissions = await handle(rig, from);
      expect(fetchedOf(emissions), from).toBeUndefined();
      expect(statusOf(emissions), from).toMatchObject({
        url: from,
        outcome: 'redirect',
        redirectTo: to,
        httpStatus: 200,
        meta: { redirect: 'script', rendered: 'true' },
      });
    }
  });

  it('hands the HTML pages scripts fetch to the scheduler as links, and not their JSON data', async () => {
    const rig = rigWith();
    const emissions = await handle(rig, `${origin.app}/item/1`);
    const links = emissions.filter((e) => e.topic === Topics.links).map((e) => e.value as Outlinks);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({
      kind: 'xhr',
      sourceUrl: `${origin.app}/item/1`,
      depth: 2,
      links: [{ url: `${origin.app}/teasers/1`, source: 'xhr' }],
    });
  });

  it('scrolls infinite lists and clicks "load more" as the site rules say; without a rule such pages are plain', async () => {
    const withoutRules = rigWith();
    const unruled = fetchedOf(await handle(withoutRules, `${origin.mixed}/feed`))!;
    expect(unruled.meta.rendered).toBeUndefined();
    expect([...linksOf(unruled)].filter((url) => pagesUnder(`${origin.mixed}/feed/item/`).includes(url))).toEqual([]);

    const mixed = origin.mixed!.replace(/[.]/g, '\\.');
    const rules = [
      { pattern: `^${mixed}/feed$`, scrolls: 5 },
      { pattern: `^${mixed}/archive$`, click: '#load-more' },
      { pattern: `^${mixed}/live$` },
    ];
    const ruled = rigWith({ renderRulesFile: await writeRules(rules) });
    for (const { url } of truth.rendering.enhanced) {
      const page = fetchedOf(await handle(ruled, url))!;
      expect(page.meta, url).toMatchObject({ rendered: 'true', renderReason: 'rule' });
      const links = linksOf(page);
      const revealed = pagesUnder(`${url}/`);
      expect(revealed.length, url).toBeGreaterThan(0);
      for (const target of revealed) expect(links, url).toContain(target);
    }
  });

  it('sends every sub-request through robots.txt and the politeness gate of its host, ahead of waiting URLs', async () => {
    const rig = rigWith();
    const acquired: { queueKey: string; front: boolean }[] = [];
    const acquire = rig.parts.gate.acquire.bind(rig.parts.gate);
    rig.parts.gate.acquire = (queueKey, delayMs, signal, options) => {
      acquired.push({ queueKey, front: options?.front === true });
      return acquire(queueKey, delayMs, signal, options);
    };
    const page = fetchedOf(await handle(rig, `${origin.app}/`))!;
    const host = new URL(origin.app!).host;
    const subrequests = acquired.filter((call) => call.front);
    // One permit for the page itself, one per sub-request sent: none bypassed the gate.
    expect(acquired.filter((call) => !call.front)).toHaveLength(1);
    expect(subrequests).toHaveLength(Number(page.meta.renderRequests));
    expect(subrequests.every((call) => call.queueKey === host)).toBe(true);
    // The script's fetch under /private/ was refused by robots.txt: the site never saw it.
    for (const url of truth.disallowed) expect(web.requests.count(url), url).toBe(0);
    expect(Number(page.meta.renderRefused)).toBeGreaterThanOrEqual(1);
  });

  it('refuses the off-machine loads of a page and lets no image through', async () => {
    const rig = rigWith();
    const request = frontierRequest(`${origin.app}/item/3`);
    const fetched = await fetchUrl(rig.parts.deps, request);
    if (fetched.kind !== 'page') throw new Error(`expected a page, got ${fetched.outcome}`);
    const rendered = await rig.renderer.process(plainPageOf(request, fetched));
    if (rendered?.kind !== 'rendered') throw new Error(`expected a rendered page, got ${rendered?.kind}`);
    const refusals = new Map(rendered.network.refusals.map((r) => [canonicalUrl(r.url), r.reason]));
    const offMachine = truth.rendering.offMachine.filter((url) => !url.endsWith('.png'));
    for (const url of offMachine) expect(refusals.get(canonicalUrl(url)), url).toBe('blocked_address');
    expect(refusals.get('http://198.51.100.9/pixel.png')).toBe('type');
    expect(rendered.network.refused.get('blocked_address')).toBe(offMachine.length);
  });

  it('learns per site: stops rendering inert shells after the samples, keeps rendering shells whose scripts matter', async () => {
    const store = new MemoryFingerprintStore();
    const rig = rigWith({ renderLearnSamples: 3 }, store);
    const routes: string[] = [];
    for (const url of truth.rendering.inert.slice(0, 6)) {
      const page = fetchedOf(await handle(rig, url))!;
      routes.push(page.meta.rendered === 'true' ? 'rendered' : 'plain');
    }
    expect(routes).toEqual(['rendered', 'rendered', 'rendered', 'plain', 'plain', 'plain']);
    expect(await store.get('render-decision', [new URL(origin.inert!).host])).toEqual(['skip']);

    for (const url of [`${origin.app}/about`, `${origin.app}/item/4`, `${origin.app}/item/5`, `${origin.app}/item/6`]) {
      expect(fetchedOf(await handle(rig, url))!.meta.rendered, url).toBe('true');
    }
    expect(await store.get('render-decision', [new URL(origin.app!).host])).toEqual(['render']);
  });
});

async function writeRules(rules: unknown[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'render-rules-')), 'rules.json');
  await writeFile(file, JSON.stringify({ rules }));
  return file;
}
