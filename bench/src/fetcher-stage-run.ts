import { Codec, hostQueueKey, parseCrawlJob, silentLogger, urlId, type FrontierRequest } from '@crawler/core';
import { InProcessBus, MemoryFingerprintStore } from '@crawler/embedded';
import { createFetcherService, loadFetcherConfig } from '@crawler/fetcher';

export interface StageRunResult {
  pages: number;
  outcomes: Record<string, number>;
  seconds: number;
  perSecond: number;
  cpuSecondsPer1000: number;
  rssBeforeMb: number;
  peakRssMb: number;
  /** Peak heap in use minus the heap before the run. */
  peakHeapGrowthMb: number;
  peakWaiting: number;
  peakQueues: number;
}

function frontierRequest(url: string): FrontierRequest {
  const parsed = new URL(url);
  return {
    url,
    urlId: urlId(url),
    host: parsed.host,
    queueKey: hostQueueKey(parsed),
    depth: 1,
    jobId: 'bench',
    traceId: 'bench',
    attempt: 1,
    scheduledAt: 0,
    leaseUntil: 0,
    trafficClass: 'discovery',
    etag: null,
    lastModified: null,
    previousDigest: null,
    meta: {},
  };
}

/**
 * The fetcher alone: the service's stage (robots, politeness gate, HTTP client, body compression,
 * the messages it would emit), wired as the service wires it, over a list of URLs, with at most
 * `accepted` URLs taken at once as the stage runner would (FETCHER_QUEUED_MAX). Its bus is never
 * read: no other service runs.
 */
export async function runFetcherStage(
  urls: string[],
  settings: Record<string, unknown>,
  accepted: number,
  bodyCompression: 'gzip' | 'identity' = 'gzip',
): Promise<StageRunResult> {
  const bus = new InProcessBus();
  const fetcher = createFetcherService(
    loadFetcherConfig({ env: {}, overrides: { allowAddresses: ['127.0.0.1'], bodyCompression, ...settings } }),
    parseCrawlJob({ id: 'bench' }),
    { bus, producer: bus.producer(), codec: new Codec(), state: new MemoryFingerprintStore() },
    silentLogger(),
  );
  const { stage } = fetcher;
  const context = {} as Parameters<typeof stage.handle>[1];
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  let peakHeap = heapBefore;
  let peakWaiting = 0;
  let peakQueues = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    const depth = fetcher.gate.depth();
    peakWaiting = Math.max(peakWaiting, depth.waiting);
    peakQueues = Math.max(peakQueues, depth.queues);
  }, 50);
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: accepted }, async () => {
      while (next < urls.length) await stage.handle(frontierRequest(urls[next++]!), context);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  clearInterval(sampler);
  await fetcher.stop();
  await bus.close();
  return {
    pages: fetcher.metrics.outcomes.get('ok') ?? 0,
    outcomes: Object.fromEntries(fetcher.metrics.outcomes),
    seconds,
    perSecond: urls.length / seconds,
    cpuSecondsPer1000: ((cpu.user + cpu.system) / 1e6 / urls.length) * 1000,
    rssBeforeMb: Math.round(rssBefore / 1024 / 1024),
    peakRssMb: Math.round(peakRss / 1024 / 1024),
    peakHeapGrowthMb: Math.round((peakHeap - heapBefore) / 1024 / 1024),
    peakWaiting,
    peakQueues,
  };
}
