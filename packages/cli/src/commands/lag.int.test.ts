import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { partitionForKey, silentLogger, type IncomingMessage } from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';

const run = promisify(execFile);
const brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:19092';
const bus = createKafkaBus(loadKafkaConfig({ env: { KAFKA_BROKERS: brokers } }), silentLogger());

afterAll(() => bus.close());

interface LagJson {
  groups: {
    group: string;
    state: string;
    members: number;
    lag: number;
    partitions: {
      partition: number;
      committed: number;
      end: number;
      lag: number;
      owner: string | null;
      committedAt: number | null;
    }[];
  }[];
}

async function lagJson(group: string, topic: string): Promise<LagJson> {
  const out: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.stubEnv('KAFKA_BROKERS', brokers);
  const code = await runCli(['lag', '--group', group, '--topic', topic, '--json']);
  write.mockRestore();
  vi.unstubAllEnvs();
  expect(code).toBe(0);
  return JSON.parse(out.join('')) as LagJson;
}

describe('crawler lag on Kafka', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reports committed and log-end offsets and lag per partition, the same offsets kcat reads', async () => {
    const topic = `lag-cli.${randomUUID().slice(0, 8)}`;
    const group = `lag-cli-${randomUUID().slice(0, 8)}`;
    await bus.createTopics([{ name: topic, partitions: 3, retentionMs: 3_600_000, maxMessageBytes: 1_048_576 }]);
    const keyFor = (partition: number) =>
      Array.from({ length: 100 }, (_, i) => `host-${i}`).find((key) => partitionForKey(key, 3) === partition)!;
    const producer = bus.producer();
    await producer.send(
      topic,
      [7, 4, 0].flatMap((count, partition) =>
        Array.from({ length: count }, () => ({ key: keyFor(partition), value: Buffer.from('x') })),
      ),
    );
    const seen: IncomingMessage[] = [];
    const consumer = bus.consumer({ groupId: group, topics: [topic], fromBeginning: true, clientId: 'lag-test' });
    await consumer.start({ onMessage: async (message) => void seen.push(message) });
    await waitFor(() => seen.length === 11, 15_000);
    await consumer.commit([
      { topic, partition: 0, offset: 5 },
      { topic, partition: 1, offset: 4 },
    ]);

    const live = (await lagJson(group, topic)).groups[0]!;
    expect(live).toMatchObject({ group, state: 'Stable', members: 1, lag: 2 });
    expect(live.partitions.map(({ partition, committed, end, lag }) => [partition, committed, end, lag])).toEqual([
      [0, 5, 7, 2],
      [1, 4, 4, 0],
      [2, -1, 0, 0],
    ]);
    expect(
      live.partitions.every(
        (entry) => entry.owner === `${(live.partitions[0]!.owner ?? '').split('/')[0]}/${process.pid}`,
      ),
    ).toBe(true);
    expect(live.partitions[0]!.committedAt).toBeGreaterThan(Date.now() - 60_000);
    await consumer.stop();

    const report = (await lagJson(group, topic)).groups[0]!;
    expect(report).toMatchObject({ state: 'Empty', members: 0, lag: 2 });
    // kcat's own view: log-end offsets by query, and what the group has left to read by consuming
    // from its committed offsets. kcat commits the offsets it stored when it exits, so none are stored.
    const query = await run('kcat', [
      '-b',
      brokers,
      '-Q',
      ...[0, 1, 2].flatMap((partition) => ['-t', `${topic}:${partition}:-1`]),
    ]);
    const ends = new Map(
      [...query.stdout.matchAll(/\[(\d+)\] offset (\d+)/g)].map((match) => [Number(match[1]), Number(match[2])]),
    );
    const consumed = await run(
      'kcat',
      [
        '-b',
        brokers,
        '-G',
        group,
        topic,
        '-e',
        '-q',
        '-f',
        '%p %o\\n',
        '-X',
        'enable.auto.commit=false',
        '-X',
        'enable.auto.offset.store=false',
        '-X',
        'auto.offset.reset=earliest',
      ],
      { timeout: 60_000 },
    );
    const remaining = consumed.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ').map(Number) as [number, number]);
    for (const entry of report.partitions) {
      expect(entry.end).toBe(ends.get(entry.partition));
      const left = remaining.filter(([partition]) => partition === entry.partition).map(([, offset]) => offset);
      expect(left.length).toBe(entry.lag);
      if (entry.lag > 0) expect(left[0]).toBe(entry.committed);
    }
    expect(remaining.length).toBe(2);
    // kcat committed nothing: the group's offsets are as before.
    expect((await lagJson(group, topic)).groups[0]!.partitions.map((entry) => entry.committed)).toEqual([5, 4, -1]);
    await producer.close();
  });

  it('says in one line that Kafka cannot be reached', async () => {
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
    vi.stubEnv('KAFKA_BROKERS', '127.0.0.1:9');
    const code = await runCli(['lag']);
    vi.unstubAllEnvs();
    expect(code).toBe(1);
    expect(err.join('')).toMatch(
      /^crawler: cannot reach Kafka at 127\.0\.0\.1:9 \(KAFKA_BROKERS\): .*\[CLI_STACK_UNREACHABLE\]\n$/,
    );
  });
});
