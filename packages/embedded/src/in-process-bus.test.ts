import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prefixTopics, type IncomingMessage } from '@crawler/core';
import { describeBusContract, waitFor } from '@crawler/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { InProcessBus } from './in-process-bus.js';

describeBusContract('in-process', async () => ({ bus: new InProcessBus(), rebalanceMs: 50 }));

describeBusContract('in-process behind a topic prefix', async () => ({
  bus: prefixTopics(new InProcessBus(), 'crawl-7.'),
  rebalanceMs: 50,
}));

describeBusContract('in-process, every topic kept in a folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bus-contract-'));
  return {
    bus: new InProcessBus({ durable: { dir } }),
    rebalanceMs: 50,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('InProcessBus retention', () => {
  it('trims what every reading group committed', async () => {
    const bus = new InProcessBus();
    await bus.createTopics([{ name: 't', partitions: 1, retentionMs: 1, maxMessageBytes: 1000 }]);
    const consumer = bus.consumer({ groupId: 'g', topics: ['t'], fromBeginning: true });
    await consumer.start({ onMessage: async () => undefined });
    await bus.producer().send(
      't',
      Array.from({ length: 100 }, () => ({ key: 'k', value: Buffer.alloc(10) })),
    );
    await consumer.commit([{ topic: 't', partition: 0, offset: 60 }]);
    const [lag] = await bus.lag('g', ['t']);
    expect(lag).toMatchObject({ committed: 60, end: 100, lag: 40 });
    const log = (bus as unknown as { topic(n: string): { partitions: { base: number }[] } }).topic('t').partitions[0]!;
    expect(log.base).toBe(60);
    await bus.close();
  });

  it('caps the bytes of a topic nobody reads', async () => {
    const bus = new InProcessBus({ retentionBytesPerPartition: 1000 });
    await bus.createTopics([{ name: 'pages', partitions: 1, retentionMs: 1, maxMessageBytes: 1000 }]);
    for (let i = 0; i < 50; i++) await bus.producer().send('pages', [{ key: 'k', value: Buffer.alloc(100) }]);
    const log = (bus as unknown as { topic(n: string): { partitions: { bytes: number; end: number }[] } }).topic(
      'pages',
    ).partitions[0]!;
    expect(log.bytes).toBeLessThanOrEqual(1000);
    expect(log.end).toBe(50);
    await bus.close();
  });

  it('caps the named topics nobody reads with their own retention', async () => {
    const bus = new InProcessBus({ retentionBytesPerPartition: 1000, retentionBytesByTopic: { pages: 0 } });
    await bus.createTopics([
      { name: 'pages', partitions: 1, retentionMs: 1, maxMessageBytes: 1000 },
      { name: 'review', partitions: 1, retentionMs: 1, maxMessageBytes: 1000 },
    ]);
    for (let i = 0; i < 50; i++) {
      await bus.producer().send('pages', [{ key: 'k', value: Buffer.alloc(100) }]);
      await bus.producer().send('review', [{ key: 'k', value: Buffer.alloc(100) }]);
    }
    // Lag of a group that never read: what the topic still holds.
    const held = async (topic: string) => (await bus.lag('nobody', [topic]))[0]!;
    expect(await held('pages')).toMatchObject({ end: 50, lag: 0 });
    expect((await held('review')).lag).toBeGreaterThan(0);
    await bus.close();
  });

  it('refuses unknown topics with a named error', async () => {
    const bus = new InProcessBus();
    await expect(bus.producer().send('nope', [{ key: null, value: Buffer.alloc(1) }])).rejects.toMatchObject({
      code: 'BUS_UNKNOWN_TOPIC',
    });
  });
});

describe('InProcessBus durable topics', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'bus-'));
    dirs.push(dir);
    return dir;
  };
  const topics = [
    { name: 'kept', partitions: 2, retentionMs: 1, maxMessageBytes: 100_000 },
    { name: 'lost', partitions: 1, retentionMs: 1, maxMessageBytes: 100_000 },
  ];

  async function open(dir: string) {
    const bus = new InProcessBus({ durable: { dir, topics: ['kept'] } });
    await bus.createTopics(topics);
    return bus;
  }

  function consume(bus: InProcessBus, topic: string) {
    const received: IncomingMessage[] = [];
    const consumer = bus.consumer({ groupId: `g-${topic}`, topics: [topic], fromBeginning: true });
    const started = consumer.start({
      onMessage: async (message) => void received.push(message),
    });
    return { consumer, received, started };
  }

  it('delivers after a restart what the group had not committed, keys, headers and offsets intact', async () => {
    const dir = folder();
    const first = await open(dir);
    const a = consume(first, 'kept');
    await a.started;
    const sent = Array.from({ length: 10 }, (_, i) => ({
      key: `k${i % 3}`,
      value: Buffer.from(`m${i}`),
      headers: { 'trace-id': `t${i}` },
    }));
    await first.producer().send('kept', sent);
    await first.producer().send('lost', [{ key: 'x', value: Buffer.from('gone') }]);
    await waitFor(() => a.received.length === 10);
    // Committed: the first half of each partition only.
    const commits = [...new Set(a.received.map((message) => message.partition))].map((partition) => {
      const mine = a.received.filter((message) => message.partition === partition);
      return { topic: 'kept', partition, offset: mine[Math.floor(mine.length / 2)]!.offset };
    });
    await a.consumer.commit(commits);
    // No clean stop: the process "dies" here; a second bus opens the same folder.
    const second = await open(dir);
    const b = consume(second, 'kept');
    const lost = consume(second, 'lost');
    await b.started;
    await lost.started;
    const expected = a.received.filter(
      (message) => message.offset >= commits.find((c) => c.partition === message.partition)!.offset,
    );
    await waitFor(() => b.received.length === expected.length);
    expect(
      b.received
        .map((m) => [m.partition, m.offset, m.key?.toString(), m.value.toString(), m.headers['trace-id']])
        .sort(),
    ).toEqual(
      expected.map((m) => [m.partition, m.offset, m.key?.toString(), m.value.toString(), m.headers['trace-id']]).sort(),
    );
    expect(lost.received).toEqual([]);
    const lag = await second.lag('g-kept', ['kept']);
    expect(lag.map((entry) => entry.end).reduce((x, y) => x + y)).toBe(10);
    await second.close();
    await first.close();
  });

  it('ignores a torn last line and numbers new messages after the last whole one', async () => {
    const dir = folder();
    const first = await open(dir);
    await first.producer().send('kept', [{ key: 'k', value: Buffer.from('whole') }]);
    await first.close();
    const file = readdirSync(dir).find((name) => name.startsWith('kept-') && statSync(join(dir, name)).size > 0)!;
    appendFileSync(join(dir, file), '{"o":1,"k":"aw==","v":"dG9y');
    const second = await open(dir);
    await second.producer().send('kept', [{ key: 'k', value: Buffer.from('after') }]);
    const c = consume(second, 'kept');
    await waitFor(() => c.received.length === 2);
    expect(c.received.map((m) => [m.offset, m.value.toString()])).toEqual([
      [0, 'whole'],
      [1, 'after'],
    ]);
    await second.close();
  });

  it('rewrites a partition file without what every group consumed, keeping offsets', async () => {
    const dir = folder();
    const bus = await open(dir);
    const c = consume(bus, 'kept');
    await c.started;
    const big = Buffer.alloc(300_000, 1);
    for (let i = 0; i < 40; i++) await bus.producer().send('kept', [{ key: 'same', value: big }]);
    await waitFor(() => c.received.length === 40);
    const partition = c.received[0]!.partition;
    const file = join(dir, `kept-${partition}.jsonl`);
    const before = statSync(file).size;
    await c.consumer.commit([{ topic: 'kept', partition, offset: 38 }]);
    expect(statSync(file).size).toBeLessThan(before / 10);
    await bus.close();
    const reopened = await open(dir);
    const again = consume(reopened, 'kept');
    await waitFor(() => again.received.length === 2);
    expect(again.received.map((m) => m.offset)).toEqual([38, 39]);
    await reopened.producer().send('kept', [{ key: 'same', value: Buffer.from('next') }]);
    await waitFor(() => again.received.length === 3);
    expect(again.received[2]!.offset).toBe(40);
    await reopened.close();
  });
});
