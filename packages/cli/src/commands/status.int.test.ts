import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  Codec,
  createLinkRecord,
  loadCatalog,
  Schemas,
  silentLogger,
  TRACE_HEADER,
  type StatusUpdate,
} from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { createElasticsearchLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';
import type { StatusSnapshot } from '../ops/crawl-status.js';

const run = randomUUID().slice(0, 8);
const env = {
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092',
  ELASTICSEARCH_URL: process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:19200',
  ELASTICSEARCH_INDEX: `crawler-status-${run}`,
  CRAWLER_TOPIC_PREFIX: `status-${run}.`,
};
const prefix = env.CRAWLER_TOPIC_PREFIX;
const bus = createKafkaBus(loadKafkaConfig({ env }), silentLogger());
const codec = new Codec();
let release: () => void = () => undefined;

afterAll(async () => {
  release();
  await bus.close();
  await fetch(`${env.ELASTICSEARCH_URL}/${env.ELASTICSEARCH_INDEX}`, { method: 'DELETE' });
});

async function statusOnce(): Promise<StatusSnapshot> {
  const out: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const code = await runCli(['status', '--once', '--json', '--stall-after', '2s']);
  write.mockRestore();
  vi.unstubAllEnvs();
  expect(code).toBe(0);
  return JSON.parse(out.join('')) as StatusSnapshot;
}

describe('crawler status on the stack', () => {
  it('shows the link base, the last minute of answers and errors, lag, and a worker that holds work without progress as stalled', async () => {
    await bus.createTopics(loadCatalog().topics.map((topic) => ({ ...topic, name: prefix + topic.name })));
    const linkbase = await createElasticsearchLinkBase(loadElasticsearchConfig({ env }), silentLogger());
    await linkbase.insertNew([
      createLinkRecord('http://a.test/', { nextFetchAt: 0 }),
      createLinkRecord('http://a.test/x', { status: 'gone', nextFetchAt: Number.MAX_SAFE_INTEGER }),
    ]);
    await linkbase.close();
    const producer = bus.producer();
    const status = (outcome: string): StatusUpdate => ({ ...sampleMessages[Schemas.StatusUpdate], outcome });
    await producer.send(
      prefix + 'crawl.status',
      ['ok', 'timeout', 'timeout', 'server_error', 'redirect'].map((outcome) => ({
        key: 'a.test',
        value: codec.encode(Schemas.StatusUpdate, status(outcome)),
      })),
    );
    const request = {
      key: 'a.test',
      value: codec.encode(Schemas.FrontierRequest, sampleMessages[Schemas.FrontierRequest]),
      headers: { [TRACE_HEADER]: 't' },
    };
    await producer.send(prefix + 'crawl.frontier', [request, request]);
    // A fetcher that finishes one URL, then takes the next and never finishes it, staying in its group.
    let taken = 0;
    const stuck = bus.consumer({
      groupId: `${prefix}fetcher`,
      topics: [prefix + 'crawl.frontier'],
      fromBeginning: true,
      clientId: 'fetcher',
    });
    await stuck.start({
      onMessage: async (message) => {
        if (++taken === 1)
          return stuck.commit([{ topic: message.topic, partition: message.partition, offset: message.offset + 1 }]);
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    await waitFor(() => taken === 2, 15_000);

    const snapshot = await waitFor(
      async () => {
        const seen = await statusOnce();
        return seen.workers.some((entry) => entry.groupId === `${prefix}fetcher` && entry.state === 'stalled') && seen;
      },
      20_000,
      250,
      'the stuck fetcher to be past --stall-after 2s',
    );
    expect(snapshot.linkbase).toMatchObject({ known: 2, due: 1, leased: 0, byStatus: { queued: 1, gone: 1 } });
    expect(snapshot.errors).toMatchObject({ answers: 5, byClass: { timeout: 2, server_error: 1 } });
    expect(snapshot.rates.answeredPerSecond).toBeCloseTo(5 / 60);
    expect(snapshot.groups.find((group) => group.group === `${prefix}fetcher`)).toMatchObject({ members: 1, lag: 1 });
    expect(snapshot.groups.find((group) => group.group === `${prefix}scheduler.status`)).toMatchObject({
      members: 0,
      lag: 5,
    });
    const worker = snapshot.workers.find((entry) => entry.groupId === `${prefix}fetcher`)!;
    expect(worker).toMatchObject({
      state: 'stalled',
      pending: 1,
      worker: expect.stringMatching(new RegExp(`/${process.pid}$`)),
    });
    expect(worker.lastProgressAt).toBeLessThan(Date.now() - 2_000);
    expect(worker.partitions).toHaveLength(12);
    await producer.close();
  });

  it('shows an extractor killed with -9 as gone within a minute, by the process name its commits carry', async () => {
    const producer = bus.producer();
    await producer.send(prefix + 'crawl.fetched', [
      { key: 'a.test', value: Buffer.from('one') },
      { key: 'a.test', value: Buffer.from('two') },
    ]);
    await producer.close();
    // A real process in the linkextract group: it commits the first record, holds the second and is killed.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
        import { silentLogger } from '@crawler/core';
        const bus = createKafkaBus(loadKafkaConfig({ env: process.env }), silentLogger());
        const consumer = bus.consumer({ groupId: process.env.GROUP, topics: [process.env.TOPIC], fromBeginning: true, clientId: 'linkextract' });
        let taken = 0;
        await consumer.start({ onMessage: async (message) => {
          if (++taken > 1) return new Promise(() => console.log('holding'));
          await consumer.commit([{ topic: message.topic, partition: message.partition, offset: message.offset + 1 }]);
        } });`,
      ],
      {
        cwd: fileURLToPath(new URL('../../../../', import.meta.url)),
        env: { ...process.env, ...env, GROUP: `${prefix}linkextract`, TOPIC: `${prefix}crawl.fetched` },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('holding') && resolve());
        child.once('exit', (code) =>
          reject(new Error(`the consumer process exited (${code}) before holding a record`)),
        );
      });
      const worker = (snapshot: StatusSnapshot) =>
        snapshot.workers.find(
          (entry) => entry.groupId === `${prefix}linkextract` && entry.worker.endsWith(`/${child.pid}`),
        );
      expect(worker(await statusOnce())?.state).toBe('working');
      child.kill('SIGKILL');
      await once(child, 'exit');
      const killedAt = Date.now();
      const gone = await waitFor(async () => {
        const found = worker(await statusOnce());
        return found?.state === 'gone' ? found : null;
      }, 60_000);
      expect(Date.now() - killedAt).toBeLessThan(60_000);
      expect(gone!.lastProgressAt).toBeLessThan(killedAt);
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});
