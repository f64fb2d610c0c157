import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BatchingProducer,
  Codec,
  loadCatalog,
  parseCrawlJob,
  silentLogger,
  Topics,
  type FrontierRequest,
} from '@crawler/core';
import { makeLinkRecord, waitFor } from '@crawler/core/testing';
import { FileLinkBase, InProcessBus } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { loadSchedulerConfig } from './config.js';
import { createSchedulerService } from './scheduler-service.js';

describe('scheduler service', () => {
  it('puts the job seeds into the link base once, even across restarts, and hands them out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scheduler-'));
    const codec = new Codec();
    const bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    const requests: FrontierRequest[] = [];
    const probe = bus.consumer({ groupId: 'probe', topics: [Topics.frontier], fromBeginning: true });
    await probe.start({ onMessage: async (message) => void requests.push(codec.decode(message.value)) });
    const job = parseCrawlJob({ seeds: ['http://a.test/', 'http://b.test/start'] });
    const config = loadSchedulerConfig({ env: {}, overrides: { tickMs: 20 } });
    for (let run = 0; run < 2; run++) {
      const linkbase = await FileLinkBase.open(dir);
      const service = await createSchedulerService(
        config,
        job,
        { bus, producer: new BatchingProducer(bus.producer()), codec, linkbase },
        silentLogger(),
      );
      await service.start();
      if (run === 0) await waitFor(() => requests.length === 2);
      expect((await linkbase.stats(Date.now())).total).toBe(2);
      await service.stop();
      await linkbase.close();
    }
    expect(requests.map((request) => request.url).sort()).toEqual(['http://a.test/', 'http://b.test/start']);
    expect(requests.every((request) => request.depth === 0 && request.queueKey === new URL(request.url).host)).toBe(
      true,
    );
    await probe.stop();
    await bus.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('owns every partition alone once started, so a re-crawl due at once is seen as work', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scheduler-'));
    const bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    const linkbase = await FileLinkBase.open(dir);
    await linkbase.insertNew([makeLinkRecord('http://c.test/', { status: 'fetched', fetchCount: 1, nextFetchAt: 1 })]);
    const service = await createSchedulerService(
      loadSchedulerConfig({ env: {}, overrides: { tickMs: 60_000 } }),
      parseCrawlJob({}),
      { bus, producer: new BatchingProducer(bus.producer()), codec: new Codec(), linkbase },
      silentLogger(),
    );
    await service.start();
    expect(service.ownership.owned).toEqual([...Array(12).keys()]);
    expect(await service.hasDueWork()).toBe(true);
    await service.stop();
    await linkbase.close();
    await bus.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
