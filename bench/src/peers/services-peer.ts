import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogGroups, prefixTopics, silentLogger } from '@crawler/core';
import { createElasticsearchLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { benchCrawlEnv } from '../bench-crawl-settings.js';
import { meterProcesses } from '../process-meter.js';
import type { PeerRun, PeerSettings } from './peer-process.js';
import { startService, waitUntilReady, type ServiceProcess } from './service-process.js';

const POLL_MS = 250;

/**
 * The four services as separate OS processes on the real stack, as test/e2e runs them (one
 * process each here, so the concurrency matches the other peers). Consumers start first and
 * are ready before the scheduler inserts the seeds; the clock starts with the scheduler. Done
 * when the link base has nothing pending or leased and no consumer group has lag, as the
 * end-to-end test decides it.
 */
export async function runServicesPeer(
  settings: PeerSettings,
  env: Record<string, string>,
  stackPids: number[],
): Promise<PeerRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-services-'));
  const jobFile = join(scratch, 'job.json');
  writeFileSync(jobFile, JSON.stringify({ id: 'bench', seeds: settings.seeds, maxPages: settings.maxPages }));
  const serviceEnv = {
    ...env,
    ...benchCrawlEnv(settings.concurrency),
    ...(settings.userAgent ? { FETCHER_USER_AGENT: settings.userAgent } : {}),
    CRAWL_JOB_FILE: jobFile,
    LOG_LEVEL: 'warn',
  };
  const logger = silentLogger();
  // The crawl's topics and groups, as the services name them (CRAWLER_TOPIC_PREFIX applied by the bus).
  const bus = prefixTopics(createKafkaBus(loadKafkaConfig({ env }), logger), env.CRAWLER_TOPIC_PREFIX ?? '');
  const linkbase = await createElasticsearchLinkBase(loadElasticsearchConfig({ env }), logger);
  const services: ServiceProcess[] = [];
  try {
    for (const name of ['dedup', 'linkextract', 'fetcher']) services.push(await startService(name, serviceEnv));
    await Promise.all(services.map((service) => waitUntilReady(service, 120_000)));
    const meter = meterProcesses(services.map((service) => service.child.pid!));
    const stackMeter = meterProcesses(stackPids, 1000);
    const started = performance.now();
    const scheduler = await startService('scheduler', serviceEnv);
    services.push(scheduler);
    meter.add(scheduler.child.pid!);
    let fetched = 0;
    let last = started;
    let quiet = 0;
    let stopReason = 'complete';
    while (quiet < 2) {
      if (performance.now() - started > settings.timeLimitMs) {
        stopReason = 'time limit';
        break;
      }
      if (scheduler.child.exitCode !== null) throw new Error(`scheduler exited:\n${scheduler.logTail()}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const stats = await linkbase.stats(Date.now());
      const now = stats.byStatus.fetched ?? 0;
      if (now > fetched) [fetched, last] = [now, performance.now()];
      const pending = (stats.byStatus.queued ?? 0) + (stats.byStatus.retry ?? 0);
      const budgetSpent = fetched >= settings.maxPages;
      const idle = stats.total > 0 && (pending === 0 || budgetSpent) && stats.leased === 0 && (await lagTotal()) === 0;
      quiet = idle ? quiet + 1 : 0;
    }
    const seconds = (performance.now() - started) / 1000;
    const reading = meter.stop();
    const stack = stackMeter.stop();
    await linkbase.flush();
    const okUrls: string[] = [];
    for await (const record of linkbase.scan()) if (record.status === 'fetched') okUrls.push(record.url);
    return {
      done: {
        event: 'done',
        pages: okUrls.length,
        seconds,
        lastPageSeconds: (last - started) / 1000,
        notes: { stopReason, processes: services.length },
      },
      okUrls,
      storedUrls: null,
      cpuSeconds: reading.cpuSeconds,
      peakRssMb: reading.peakRssMb,
      stackCpuSeconds: stack.cpuSeconds,
    };
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    await Promise.all([bus.close(), linkbase.close()]);
    rmSync(scratch, { recursive: true, force: true });
  }

  async function lagTotal(): Promise<number> {
    let total = 0;
    for (const group of catalogGroups()) {
      for (const lag of await bus.lag(group.group, group.topics)) total += Math.max(lag.lag, 0);
    }
    return total;
  }
}
