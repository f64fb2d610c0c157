import { describe, expect, it } from 'vitest';
import { Codec } from '../codec/codec.js';
import { CodecError } from '../errors.js';
import { Schemas, type DeadLetter } from '../messages.js';
import type { IncomingMessage } from '../ports/bus.js';
import { encodeDeadLetter } from './dead-letter.js';

const codec = new Codec();
const origin = { service: 'fetcher', consumerGroup: 'fetcher', attempts: 1, failedAt: 1_790_000_000_000 };

function message(value: Buffer): IncomingMessage {
  return {
    topic: 'crawl.frontier',
    partition: 2,
    offset: 7,
    key: Buffer.from('a.test'),
    value,
    headers: { 'trace-id': 't1' },
    timestamp: 0,
  };
}

describe('encodeDeadLetter', () => {
  it('keeps the original key, headers and bytes with the error code and reason', () => {
    const value = Buffer.from([0xde, 0xad, 0xbe, 0xef]);
    const dead = codec.decode<DeadLetter>(
      encodeDeadLetter(codec, message(value), new CodecError('CODEC_BAD_HEADER', 'not Avro'), origin),
      Schemas.DeadLetter,
    );
    expect(dead).toMatchObject({
      topic: 'crawl.frontier',
      partition: 2,
      offset: 7,
      key: Buffer.from('a.test'),
      value,
      valueTruncatedFrom: null,
      headers: { 'trace-id': 't1' },
      errorCode: 'CODEC_BAD_HEADER',
      reason: 'not Avro',
      attempts: 1,
    });
  });

  it('cuts a value too large for the dead-letter topic to fit it, and says so', () => {
    const value = Buffer.alloc(20_000, 7);
    const bytes = encodeDeadLetter(codec, message(value), new Error('too big'), origin, 10_000);
    const dead = codec.decode<DeadLetter>(bytes, Schemas.DeadLetter);
    expect(bytes.length).toBeLessThanOrEqual(10_000);
    expect(bytes.length).toBeGreaterThan(9_000);
    expect(dead.valueTruncatedFrom).toBe(20_000);
    expect(value.subarray(0, dead.value.length).equals(dead.value)).toBe(true);
    expect(dead.reason).toBe(`too big [value cut to its first ${dead.value.length} of 20000 bytes to fit crawl.dlq]`);
  });
});
