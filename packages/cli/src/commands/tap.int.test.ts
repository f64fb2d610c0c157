import { randomUUID } from 'node:crypto';
import { Codec, Schemas, silentLogger, type StatusUpdate } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';
import type { TappedRecord } from '../ops/record-json.js';

const brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:19092';
const bus = createKafkaBus(loadKafkaConfig({ env: { KAFKA_BROKERS: brokers } }), silentLogger());
const codec = new Codec();
const topic = `tap-cli.${randomUUID().slice(0, 8)}`;

async function tap(args: string[]): Promise<TappedRecord[]> {
  const out: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.stubEnv('KAFKA_BROKERS', brokers);
  const code = await runCli(['tap', topic, ...args]);
  write.mockRestore();
  vi.unstubAllEnvs();
  expect(code).toBe(0);
  return out
    .join('')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TappedRecord);
}

const status = (host: string, outcome: string): StatusUpdate => ({
  ...sampleMessages[Schemas.StatusUpdate],
  url: `http://${host}/x`,
  host,
  queueKey: host,
  outcome,
});

beforeAll(async () => {
  await bus.createTopics([{ name: topic, partitions: 1, retentionMs: 3_600_000, maxMessageBytes: 1_048_576 }]);
  const producer = bus.producer();
  const records = [
    status('a.test', 'gone'),
    status('b.test', 'ok'),
    status('a.test', 'timeout'),
    status('a.test', 'ok'),
  ];
  await producer.send(topic, [
    ...records.map((value, index) => ({
      key: value.host,
      value: codec.encode(Schemas.StatusUpdate, value),
      headers: { 'trace-id': `trace-${index}` },
    })),
    { key: null, value: Buffer.from('garbage') },
  ]);
  await producer.close();
});

afterAll(() => bus.close());

describe('crawler tap on Kafka', () => {
  it('prints decoded records as JSON lines, filtered, with their headers, and undecodable ones with the reason', async () => {
    const lines = await tap(['--from', 'beginning', '--filter', 'host=a.test', '--max', '3']);
    expect(
      lines.map((line) => [line.offset, line.schema, (line.value as StatusUpdate).outcome, line.headers['trace-id']]),
    ).toEqual([
      [0, 'crawler.StatusUpdate', 'gone', 'trace-0'],
      [2, 'crawler.StatusUpdate', 'timeout', 'trace-2'],
      [3, 'crawler.StatusUpdate', 'ok', 'trace-3'],
    ]);
    const all = await tap(['--from', 'beginning', '--max', '5']);
    expect(all[4]).toMatchObject({
      offset: 4,
      key: null,
      error: { code: 'CODEC_BAD_HEADER' },
      raw: Buffer.from('garbage').toString('base64'),
    });
  });

  it('resumes where its --group left off', async () => {
    const group = `tap-test-${randomUUID().slice(0, 8)}`;
    expect((await tap(['--group', group, '--from', 'beginning', '--max', '2'])).map((line) => line.offset)).toEqual([
      0, 1,
    ]);
    expect((await tap(['--group', group, '--max', '2'])).map((line) => line.offset)).toEqual([2, 3]);
  });
});
