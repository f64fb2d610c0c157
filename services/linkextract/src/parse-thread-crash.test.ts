import { gzipSync } from 'node:zlib';
import {
  BatchingProducer,
  Codec,
  ErrorCode,
  loadCatalog,
  parseCrawlJob,
  Schemas,
  silentLogger,
  StageRunner,
  Topics,
} from '@crawler/core';
import type { FetchResult, ParsedPage, StatusUpdate } from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { InProcessBus } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { extractLimitsOf, loadLinkextractConfig } from './config.js';
import { createDocumentExtractor } from './documents/document-extractor.js';
import { createLinkextractStage } from './linkextract-stage.js';

const codec = new Codec();

function fetched(path: string): Buffer {
  const body = Buffer.from(
    `<html><head><title>${path}</title></head><body><a href="/next${path}">next</a></body></html>`,
  );
  const value: FetchResult = {
    ...sampleMessages[Schemas.FetchResult],
    url: `http://a.test${path}`,
    finalUrl: `http://a.test${path}`,
    httpStatus: 200,
    contentType: 'text/html',
    charset: null,
    headers: {},
    body: gzipSync(body),
    bodyEncoding: 'gzip',
    bodyLength: body.length,
    depth: 0,
  };
  return codec.encode(Schemas.FetchResult, value);
}

describe('link extraction on a parsing thread that dies', () => {
  it("turns the thread's death into a retriable error of that page alone: retried on a fresh thread, then a processing_failed status; the other pages pass", async () => {
    const bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    const extractor = createDocumentExtractor(
      1,
      new URL('./documents/fixtures/dying-extract-worker.mjs', import.meta.url),
    );
    const stage = createLinkextractStage({
      job: parseCrawlJob({ seeds: ['http://a.test/'] }),
      limits: extractLimitsOf(loadLinkextractConfig({ env: {} })),
      followNofollow: false,
      extractor,
    });
    const runner = new StageRunner({
      stage,
      bus,
      codec,
      producer: new BatchingProducer(bus.producer()),
      groupId: 'linkextract',
      logger: silentLogger(),
      concurrency: 4,
      maxAttempts: 2,
      retryBaseMs: 1,
      commitIntervalMs: 20,
    });
    const parsed: ParsedPage[] = [];
    const statuses: StatusUpdate[] = [];
    const tap = bus.consumer({ groupId: 'tap', topics: [Topics.parsed, Topics.status], fromBeginning: true });
    await tap.start({
      onMessage: async (message) => {
        if (message.topic === Topics.parsed) parsed.push(codec.decode(message.value));
        else statuses.push(codec.decode(message.value));
      },
    });
    await runner.start();
    try {
      await bus.producer().send(
        Topics.fetched,
        ['/one', '/die', '/two'].map((path) => ({ key: 'a.test', value: fetched(path) })),
      );
      await waitFor(
        () => parsed.length === 2 && statuses.length === 1,
        10_000,
        20,
        () => JSON.stringify({ parsed: parsed.map((p) => p.title), statuses }),
      );
      expect(parsed.map((page) => page.title).sort()).toEqual(['/one', '/two']);
      expect(parsed.every((page) => page.links.length === 1)).toBe(true);
      expect(statuses[0]).toMatchObject({
        url: 'http://a.test/die',
        outcome: 'processing_failed',
        errorCode: ErrorCode.WORKER_CRASHED,
      });
      expect(statuses[0]!.errorMessage).toMatch(/^worker linkextract-parse-\d+ stopped: exit code 7$/);
      await waitFor(
        async () => (await bus.lag('linkextract', [Topics.fetched])).every((lag) => lag.lag === 0),
        10_000,
        20,
        'every message committed',
      );
    } finally {
      await runner.stop();
      await extractor.close();
      await tap.stop();
      await bus.close();
    }
  });
});
