import { describe, expect, it } from 'vitest';
import type { BusProducer, OutgoingMessage } from '../ports/bus.js';
import { BatchingProducer } from './batching-producer.js';

function recordingProducer(fail = false) {
  const requests: { topic: string; count: number }[] = [];
  const inner: BusProducer = {
    async send(topic: string, messages: OutgoingMessage[]) {
      requests.push({ topic, count: messages.length });
      if (fail) throw new Error('broker down');
    },
    async close() {},
  };
  return { inner, requests };
}

describe('BatchingProducer', () => {
  it('sends concurrent sends of a tick as one request per topic and acks each caller', async () => {
    const { inner, requests } = recordingProducer();
    const producer = new BatchingProducer(inner);
    const message = { key: 'k', value: Buffer.from('v') };
    await Promise.all([
      producer.send('a', [message]),
      producer.send('a', [message, message]),
      producer.send('b', [message]),
    ]);
    expect(requests.sort((x, y) => x.topic.localeCompare(y.topic))).toEqual([
      { topic: 'a', count: 3 },
      { topic: 'b', count: 1 },
    ]);
  });

  it('flushes early when the batch reaches its byte limit', async () => {
    const { inner, requests } = recordingProducer();
    const producer = new BatchingProducer(inner, { lingerMs: 10_000, maxBatchBytes: 10 });
    await producer.send('a', [{ key: null, value: Buffer.alloc(12) }]);
    expect(requests).toEqual([{ topic: 'a', count: 1 }]);
  });

  it('rejects every caller of a failed request', async () => {
    const { inner } = recordingProducer(true);
    const producer = new BatchingProducer(inner);
    const results = await Promise.allSettled([
      producer.send('a', [{ key: null, value: Buffer.from('x') }]),
      producer.send('a', [{ key: null, value: Buffer.from('y') }]),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });
});
