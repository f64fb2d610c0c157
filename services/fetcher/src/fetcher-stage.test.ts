import {
  Codec,
  createMetricsRegistry,
  hostQueueKey,
  isRedirectCapture,
  linkRecordId,
  rawBody,
  sampleValue,
  silentLogger,
  Topics,
  urlId,
  type Emission,
  type FetchResult,
  type FrontierRequest,
  type Outlinks,
  type StageContext,
  type StatusUpdate,
} from '@crawler/core';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig, OWN_SITE_BUDGET } from './config.js';
import { createFetcherParts, type FetcherParts } from './fetcher-service.js';
import { createFetcherStage } from './fetcher-stage.js';
import { GateClosedError } from './politeness/politeness-gate.js';

function frontier(url: string, fields: Partial<FrontierRequest> = {}): FrontierRequest {
  const parsed = new URL(url);
  return {
    url,
    urlId: urlId(url),
    host: parsed.host,
    queueKey: hostQueueKey(parsed),
    depth: 2,
    jobId: 'job',
    traceId: 'trace',
    attempt: 1,
    scheduledAt: 0,
    leaseUntil: 0,
    trafficClass: 'discovery',
    etag: null,
    lastModified: null,
    previousDigest: null,
    meta: {},
    ...fields,
  };
}

describe('fetcher stage', () => {
  let full: TestWeb;
  let edge: TestWeb;
  const opened: FetcherParts[] = [];
  const codec = new Codec();
  const context = {} as StageContext;
  const stageWith = (
    overrides: Record<string, unknown> = {},
    signals?: { handBack: AbortSignal; abort: AbortSignal },
  ) => {
    const config = loadFetcherConfig({
      env: {},
      overrides: {
        allowAddresses: ['127.0.0.1'],
        minDelayMs: 0,
        ...OWN_SITE_BUDGET,
        delayFactor: 0,
        perHostConcurrency: 4,
        maxBodyBytes: 1024 * 1024,
        ...overrides,
      },
    });
    const parts = createFetcherParts(config, new MemoryFingerprintStore(), silentLogger());
    opened.push(parts);
    return createFetcherStage({
      deps: parts.deps,
      bodyCompression: 'gzip',
      metrics: parts.metrics,
      ...(signals ? { signals } : {}),
    });
  };
  /** Every emission must encode with its schema: what the bus would refuse, the test refuses. */
  const encoded = (emissions: Emission[]) => {
    for (const emission of emissions) codec.encode(emission.schema, emission.value);
    return emissions;
  };

  beforeAll(async () => {
    full = await startTestWeb({ seed: 2 });
    edge = await startTestWeb({ profile: 'edge' });
  });
  afterAll(async () => {
    for (const parts of opened) {
      parts.gate.close();
      await parts.client.close();
    }
    await Promise.all([full.close(), edge.close()]);
  });

  it('publishes a page on crawl.fetched, and the Sitemap lines of a new robots.txt on crawl.links, once', async () => {
    const stage = stageWith();
    expect(stage.outputs).toContain(Topics.links);
    const sitemapHost = full.groundTruth().sitemaps.map((url) => new URL(url).origin)[0]!;
    const first = encoded(await stage.handle(frontier(`${sitemapHost}/`), context));
    expect(first.map((emission) => emission.topic).sort()).toEqual([Topics.fetched, Topics.links]);
    const links = first.find((emission) => emission.topic === Topics.links)!.value as Outlinks;
    expect(links).toMatchObject({ kind: 'robots', sourceUrl: `${sitemapHost}/robots.txt`, jobId: 'job', depth: 1 });
    expect(links.links.map((link) => link.url)).toEqual(
      full.groundTruth().sitemaps.filter((url) => url.startsWith(sitemapHost)),
    );
    expect(links.links.every((link) => link.source === 'sitemap')).toBe(true);
    const again = await stage.handle(
      frontier(full.groundTruth().pages.find((url) => url.startsWith(sitemapHost) && !url.endsWith('/'))!),
      context,
    );
    expect(again.map((emission) => emission.topic)).toEqual([Topics.fetched]);
  });

  it('publishes every other outcome as a status, and counts each class', async () => {
    const stage = stageWith();
    const at = (path: string) => `${edge.hosts.find((host) => host.name === 'http')!.origin}${path}`;
    const [gone] = encoded(await stage.handle(frontier(at('/status/410')), context));
    expect(gone).toMatchObject({
      topic: Topics.status,
      value: { outcome: 'gone', httpStatus: 410, retriable: false, jobId: 'job' },
    });
    const [big] = encoded(await stage.handle(frontier(at('/big')), context));
    expect(big).toMatchObject({
      topic: Topics.fetched,
      value: { truncated: true, bodyEncoding: 'gzip', bodyLength: 1024 * 1024 },
    });
    const [sniffed] = await stage.handle(frontier(at('/lies/no-type')), context);
    expect(sniffed).toMatchObject({ value: { contentType: 'text/html', meta: { contentTypeSniffed: 'true' } } });
    const [failing] = await stage.handle(
      frontier(`${edge.hosts.find((host) => host.name === 'robots-error')!.origin}/`),
      context,
    );
    expect((failing!.value as StatusUpdate).errorCode).toBe('ROBOTS_UNAVAILABLE');
    expect(Object.fromEntries(stage.metrics.outcomes)).toEqual({ gone: 1, truncated: 1, ok: 1, robots_unavailable: 1 });
    const registry = createMetricsRegistry('fetcher', { processMetrics: false });
    stage.metrics.register(registry, () => ({
      queues: 1,
      waiting: 0,
      inFlight: 0,
      robotsCacheHits: 3,
      robotsCacheMisses: 2,
      sitesBlocked: 1,
    }));
    const text = await registry.metrics();
    expect(sampleValue(text, 'crawler_fetch_outcomes_total', { class: 'truncated' })).toBe(1);
    expect(sampleValue(text, 'crawler_robots_fetches_total', { result: 'unavailable' })).toBe(1);
    expect(sampleValue(text, 'crawler_fetch_duration_seconds_count')).toBe(4);
    expect(sampleValue(text, 'crawler_robots_cache_lookups_total', { result: 'hit' })).toBe(3);
    expect(sampleValue(text, 'crawler_politeness_queues')).toBe(1);
    expect(sampleValue(text, 'crawler_sites_blocked')).toBe(1);
  });

  it('follows a same-host chain inline under the final URL and reports the requested URL as redirected', async () => {
    const stage = stageWith({ maxRedirects: 5 });
    const start = `${edge.hosts.find((host) => host.name === 'http')!.origin}/chain/1`;
    const emissions = encoded(await stage.handle(frontier(start), context));
    expect(emissions.map((emission) => emission.topic)).toEqual([
      Topics.fetched,
      Topics.status,
      Topics.fetched,
      Topics.fetched,
      Topics.fetched,
    ]);
    expect(emissions[0]!.value).toMatchObject({ url: start.replace('/chain/1', '/chain/end'), previousDigest: null });
    expect(emissions[1]!.value).toMatchObject({
      url: start,
      outcome: 'redirect',
      redirectTo: start.replace('/chain/1', '/chain/end'),
      meta: { followed: 'true' },
    });
    // Each hop followed, as served, for the archive.
    const hops = emissions.slice(2).map((emission) => emission.value as FetchResult);
    expect(hops.map((hop) => [hop.url, hop.httpStatus, hop.headers.location])).toEqual([
      [start, 301, '/chain/2'],
      [start.replace('/chain/1', '/chain/2'), 302, `${start.replace('/chain/1', '/chain/3')}#ignored`],
      [start.replace('/chain/1', '/chain/3'), 307, '/chain/end'],
    ]);
    for (const hop of hops) expect(hop.requestHeaders['user-agent']).toBeTruthy();
  });

  it('hands a redirect to the scheduler and publishes it with its status, Location and body for the archive', async () => {
    const stage = stageWith();
    const origin = full.hosts.find((host) => host.name === 'blog')!.origin;
    const emissions = encoded(await stage.handle(frontier(`${origin}/go/about`), context));
    // (then the Sitemap lines of the robots.txt this first fetch of the host read)
    expect(emissions.map((emission) => emission.topic).slice(0, 2)).toEqual([Topics.status, Topics.fetched]);
    expect(emissions[0]!.value).toMatchObject({ outcome: 'redirect', redirectTo: `${origin}/about` });
    const redirect = emissions[1]!.value as FetchResult;
    expect(redirect).toMatchObject({
      url: `${origin}/go/about`,
      urlId: linkRecordId('job', `${origin}/go/about`),
      finalUrl: `${origin}/go/about`,
      httpStatus: 307,
      contentType: 'text/html',
      headers: { location: '/about' },
      truncated: false,
    });
    expect(isRedirectCapture(redirect)).toBe(true);
    expect(rawBody(redirect.body, redirect.bodyEncoding).toString()).toContain('Temporary Redirect');
  });

  it('hands a URL still waiting for its queue back when the service stops, instead of failing it', async () => {
    const handBack = new AbortController();
    const stage = stageWith({ minDelayMs: 60_000 }, { handBack: handBack.signal, abort: new AbortController().signal });
    const origin = edge.hosts.find((host) => host.name === 'robots-denied')!.origin;
    await stage.handle(frontier(`${origin}/`), context);
    const waiting = stage.handle(frontier(`${origin}/anything`), context);
    handBack.abort();
    await expect(waiting).rejects.toBeInstanceOf(GateClosedError);
    await expect(waiting).rejects.toMatchObject({ code: 'FETCHER_STOPPING', retriable: true });
  });
});
