import { BackendError, MessageTooLargeError } from '@crawler/core';
import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { toBusError } from './kafka-errors.js';

function protocolError(type: string, message: string): Error {
  return Object.assign(new Error(message), { name: 'KafkaJSProtocolError', type });
}

describe('toBusError', () => {
  it('turns a too-large record into a final MessageTooLargeError', () => {
    const error = toBusError(
      protocolError(
        'MESSAGE_TOO_LARGE',
        'The request included a message larger than the max message size the server will accept',
      ),
      'producing 1 message(s) to t',
    );
    expect(error).toBeInstanceOf(MessageTooLargeError);
    expect(error).toMatchObject({ code: 'MESSAGE_TOO_LARGE', retriable: false });
    expect(error.message).toMatch(/producing 1 message\(s\) to t: .*max\.message\.bytes/);
  });

  it('finds the broker error inside kafkajs retry wrappers', () => {
    const inner = protocolError('UNKNOWN_TOPIC_OR_PARTITION', 'This server does not host this topic-partition');
    const wrapped = Object.assign(new Error('retries exceeded'), {
      name: 'KafkaJSNumberOfRetriesExceeded',
      cause: inner,
    });
    expect(toBusError(wrapped, 'producing to nope')).toMatchObject({ code: 'BUS_UNKNOWN_TOPIC', retriable: false });
  });

  it('makes anything else a retriable BackendError that keeps the cause and hides secrets', () => {
    const cause = new Error('Connection error: ECONNREFUSED for user:s3cret');
    const error = toBusError(cause, 'committing offsets', (text) => text.replace('s3cret', '[redacted]'));
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ code: 'BACKEND_UNAVAILABLE', retriable: true, cause });
    expect(error.message).toBe('committing offsets failed: Connection error: ECONNREFUSED for user:[redacted]');
  });

  it('recognises the real kafkajs error classes', () => {
    // The error classes are spread into kafkajs' exports, which Node's ESM loader cannot name.
    const { KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } = kafkajs;
    const tooLarge = new KafkaJSProtocolError(
      Object.assign(new Error('too large'), { type: 'MESSAGE_TOO_LARGE', code: 10, retriable: false }),
    );
    expect(
      toBusError(new KafkaJSNumberOfRetriesExceeded(tooLarge, { retryCount: 5, retryTime: 100 }), 'x'),
    ).toBeInstanceOf(MessageTooLargeError);
  });
});
