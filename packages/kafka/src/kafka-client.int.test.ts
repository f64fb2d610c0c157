import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { createKafkaBus } from './kafka-bus.js';
import { loadKafkaConfig } from './kafka-settings.js';

const PASSWORD = `pw-${randomUUID()}`;

describe('Kafka client logging', () => {
  it('never writes the SASL password, even when SASL fails against a plaintext listener (producer, admin, consumer)', async () => {
    const lines: string[] = [];
    const logger = createLogger('test', {
      level: 'debug',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    const config = loadKafkaConfig({
      env: {
        KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092',
        KAFKA_SASL_MECHANISM: 'plain',
        KAFKA_SASL_USERNAME: 'crawler',
        KAFKA_SASL_PASSWORD: PASSWORD,
        KAFKA_LOG_LEVEL: 'debug',
      },
    });
    const bus = createKafkaBus(config, logger);
    const failures = [
      await bus
        .producer()
        .send('any-topic', [{ key: 'k', value: Buffer.from('x') }])
        .catch((error: unknown) => error),
      await bus
        .createTopics([{ name: 'any-topic', partitions: 1, retentionMs: 60_000, maxMessageBytes: 1000 }])
        .catch((error: unknown) => error),
      await bus
        .consumer({ groupId: 'any-group', topics: ['any-topic'] })
        .start({ onMessage: async () => undefined })
        .catch((error: unknown) => error),
    ];
    await bus.close();
    for (const failure of failures) {
      expect(failure).toMatchObject({ code: 'BACKEND_UNAVAILABLE', retriable: true });
      expect(String((failure as Error).message)).not.toContain(PASSWORD);
    }
    expect(lines.some((line) => /"level":"(warn|error)"/.test(line) && line.includes('SASL state'))).toBe(true);
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(line).not.toContain(PASSWORD);
  }, 90_000);
});
