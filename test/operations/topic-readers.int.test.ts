import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Codec, Schemas, silentLogger, TRACE_HEADER, type StoredPage } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docCodeBlock } from './doc-code-blocks.js';
import { runJavaReader } from './java-reader.js';

const run = promisify(execFile);
const schemasDir = fileURLToPath(new URL('../../schemas/', import.meta.url));
const brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:19092';
const topic = `readers-${randomUUID().slice(0, 8)}.crawl.pages`;
const bus = createKafkaBus(loadKafkaConfig({ env: { KAFKA_BROKERS: brokers } }), silentLogger());
const today: StoredPage = {
  ...sampleMessages[Schemas.StoredPage],
  url: 'http://news.example.test/today',
  traceId: 'trace-today',
};
/** The saved sample of the first StoredPage version: bytes as old producers wrote them. */
const savedSample = readFileSync(join(schemasDir, 'samples', 'crawler.StoredPage.v1.bin'));
const savedValue = JSON.parse(
  readFileSync(join(schemasDir, 'samples', 'crawler.StoredPage.v1.json'), 'utf8'),
) as StoredPage;

beforeAll(async () => {
  await bus.createTopics([{ name: topic, partitions: 1, retentionMs: 3_600_000, maxMessageBytes: 1_048_576 }]);
  const producer = bus.producer();
  await producer.send(topic, [
    { key: 'news.example.test', value: savedSample },
    {
      key: 'news.example.test',
      value: new Codec().encode(Schemas.StoredPage, today),
      headers: { [TRACE_HEADER]: today.traceId },
    },
  ]);
  await producer.close();
});

afterAll(() => bus.close());

describe('reading a crawl topic outside the crawler without a registry, as docs/DATA.md shows', () => {
  it('the Python example decodes every record with fastavro and schemas/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawler-python-reader-'));
    writeFileSync(join(dir, 'read_crawl_topic.py'), docCodeBlock('### Python', 'python'));
    const { stdout } = await run('python3', [join(dir, 'read_crawl_topic.py'), brokers, topic, schemasDir, '2'], {
      timeout: 60_000,
    });
    const records = stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            offset: number;
            framing: string;
            headers: Record<string, string>;
            value: { url: string; traceId: string; body: string; depth: number };
          },
      );
    expect(records.map((record) => [record.offset, record.framing, record.value.url, record.value.traceId])).toEqual([
      [0, 'single-object', savedValue.url, savedValue.traceId],
      [1, 'single-object', today.url, today.traceId],
    ]);
    expect(records[1]!.headers[TRACE_HEADER]).toBe(today.traceId);
    expect(Buffer.from(records[1]!.value.body, 'base64')).toEqual(today.body);
  });

  it('the Java example compiles against Maven Central jars and decodes every record with BinaryMessageDecoder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawler-java-reader-'));
    const lines = await runJavaReader(dir, [brokers, topic, 'crawler.StoredPage', schemasDir, '2']);
    expect(lines).toEqual([
      `0/0 single-object ${savedValue.url} trace ${savedValue.traceId}`,
      `0/1 single-object ${today.url} trace ${today.traceId}`,
    ]);
  }, 420_000);
});
