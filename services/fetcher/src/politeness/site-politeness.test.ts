import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createMetricsRegistry, sampleValue, silentLogger } from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig } from '../config.js';
import { createFetcherParts, type FetcherParts } from '../fetcher-service.js';
import { fetchUrl } from '../fetch-url.js';

const CHALLENGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>';

/** Site budgets, the footprint and blocks, on a local site whose access log has every request's time. */
describe('site budgets, footprint and blocks', () => {
  let server: Server;
  let origin: string;
  let site: string;
  let challenging = false;
  const log: { path: string; at: number }[] = [];
  const opened: FetcherParts[] = [];
  const fetcher = (overrides: Record<string, unknown>, store = new MemoryFingerprintStore()) => {
    const config = loadFetcherConfig({
      env: {},
      overrides: { allowAddresses: ['127.0.0.1'], minDelayMs: 0, delayFactor: 0, obeyRobots: false, ...overrides },
    });
    const parts = createFetcherParts(config, store, silentLogger());
    opened.push(parts);
    const fetch = (path: string) =>
      fetchUrl(parts.deps, { url: `${origin}${path}`, jobId: 'test', etag: null, lastModified: null });
    return { parts, fetch };
  };
  const requested = (prefix: string) => log.filter((entry) => entry.path.startsWith(prefix));

  beforeAll(async () => {
    server = createServer((request, response) => {
      log.push({ path: request.url ?? '', at: performance.timeOrigin + performance.now() });
      response.setHeader('content-type', 'text/html');
      response.end(challenging ? CHALLENGE : `<p>${request.url}</p>${'<p>text</p>'.repeat(400)}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    site = new URL(origin).host;
  });
  afterAll(async () => {
    for (const parts of opened) {
      parts.gate.close();
      await parts.client.close();
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("keeps a site's 10-minute ceiling across two fetchers, and hands the rest back with the wait", async () => {
    const store = new MemoryFingerprintStore();
    const budget = { siteRequestsPer10Min: 4, siteRequestsPerDay: 0, siteMeanIntervalMs: 0 };
    const a = fetcher(budget, store);
    const b = fetcher(budget, store);
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await a.fetch(`/budget/a${i}`), await b.fetch(`/budget/b${i}`));
    expect(results.filter((result) => result.kind === 'page')).toHaveLength(4);
    const deferred = results.filter((result) => result.kind === 'status');
    expect(deferred).toHaveLength(2);
    for (const result of deferred) {
      expect(result).toMatchObject({ outcome: 'throttled', retriable: true, errorCode: 'SITE_BUDGET_SPENT' });
      expect((result as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(9 * 60_000);
    }
    expect(requested('/budget/')).toHaveLength(4);
    // A fetcher that found the budget spent answers the site's next URL at once, from memory.
    expect(await a.fetch('/budget/a9')).toMatchObject({ errorCode: 'SITE_BUDGET_SPENT' });
    expect(requested('/budget/')).toHaveLength(4);
  });

  it("spaces a site's page requests by its mean interval, and counts them in the footprint as the site sees them", async () => {
    const { parts, fetch } = fetcher({ siteMeanIntervalMs: 400 });
    // A request whose timer fires late leaves less of the interval to the next one: the slots
    // (the footprint, below) are 400 ms apart, the log's gaps by up to the event loop's delay less.
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    for (let i = 0; i < 4; i++) expect(await fetch(`/paced/${i}`)).toMatchObject({ kind: 'page' });
    loopDelay.disable();
    const lateMs = loopDelay.max / 1e6;
    const times = requested('/paced/').map((entry) => entry.at);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(400 - 20 - lateMs);
    const windows = await parts.pacing!.footprint(site);
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject({ site, network: '127.0.0.0/24', requests: 4, pages: 4, attachments: 0 });
    expect(windows[0]!.minIntervalMs!).toBeGreaterThanOrEqual(400);
    const registry = createMetricsRegistry('fetcher', { processMetrics: false });
    parts.metrics.register(registry, () => ({
      queues: 0,
      waiting: 0,
      inFlight: 0,
      robotsCacheHits: 0,
      robotsCacheMisses: 0,
      sitesBlocked: 0,
    }));
    const text = await registry.metrics();
    expect(sampleValue(text, 'crawler_footprint_requests_total', { network: '127.0.0.0/24', kind: 'page' })).toBe(4);
    expect(sampleValue(text, 'crawler_footprint_busiest_site_requests', { network: '127.0.0.0/24' })).toBe(4);
  });

  it('recognizes a challenge served with 200, stores nothing of it, leaves the site alone, and probes it once', async () => {
    const { parts, fetch } = fetcher({ siteMeanIntervalMs: 0, blockBackoffMs: 300, maxBlockBackoffMs: 10_000 });
    expect(await fetch('/blocked/1')).toMatchObject({ kind: 'page' });
    challenging = true;
    expect(await fetch('/blocked/2')).toMatchObject({
      kind: 'status',
      outcome: 'blocked_by_site',
      httpStatus: 200,
      errorCode: 'SITE_CHALLENGE',
      retryAfterMs: 300,
    });
    // While blocked the site gets no request at all.
    expect(await fetch('/blocked/3')).toMatchObject({ outcome: 'blocked_by_site', errorCode: 'SITE_BLOCKED' });
    expect(requested('/blocked/3')).toHaveLength(0);
    // The block runs out: one probe, which still meets the challenge, so the block doubles.
    await waitFor(() => parts.holds.heldFor(site) === null, 5000);
    expect(await fetch('/blocked/4')).toMatchObject({ errorCode: 'SITE_CHALLENGE', retryAfterMs: 600 });
    challenging = false;
    await waitFor(() => parts.holds.heldFor(site) === null, 5000);
    expect(await fetch('/blocked/5')).toMatchObject({ kind: 'page' });
    expect(await fetch('/blocked/6')).toMatchObject({ kind: 'page' });
    expect(parts.holds.count('block')).toBe(0);
    expect(requested('/blocked/').map((entry) => entry.path)).toEqual([
      '/blocked/1',
      '/blocked/2',
      '/blocked/4',
      '/blocked/5',
      '/blocked/6',
    ]);
  });
});
