import { Writable } from 'node:stream';
import { createLogger } from '@crawler/core';
import { logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createKafkaLogCreator, createScrubber } from './kafka-log.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('test', { level: 'debug', destination: stream }) };
}

const entry = (namespace: string, level: logLevel, message: string, extra: Record<string, unknown> = {}) => ({
  namespace,
  level,
  label: 'X',
  log: { timestamp: '2026-01-01T00:00:00.000Z', logger: 'kafkajs', message, ...extra },
});

describe('createKafkaLogCreator', () => {
  it('writes kafkajs lines as structured fields at the matching level', async () => {
    const { lines, logger } = capture();
    const write = createKafkaLogCreator(logger, [])(logLevel.WARN);
    write(entry('Runner', logLevel.WARN, 'The group is rebalancing, re-joining', { groupId: 'g', memberId: 'm' }));
    write(entry('Consumer', logLevel.ERROR, 'Crash', { retryCount: 5 }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toMatchObject({
      level: 'warn',
      component: 'kafkajs',
      namespace: 'Runner',
      groupId: 'g',
      memberId: 'm',
      msg: 'The group is rebalancing, re-joining',
    });
    expect(lines[0]).not.toHaveProperty('timestamp');
    expect(lines[1]).toMatchObject({ level: 'error', namespace: 'Consumer', retryCount: 5 });
  });

  it('demotes broker error answers that the caller handles', async () => {
    const { lines, logger } = capture();
    createKafkaLogCreator(logger, [])(logLevel.WARN)(
      entry('Connection', logLevel.ERROR, 'Response Heartbeat(key: 12, version: 3)', {
        error: 'The group is rebalancing',
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toMatchObject({ level: 'debug' });
  });

  // The service logger also redacts fields named like secrets; a `sasl` field missing entirely (not
  // "[redacted]") and scrubbed text show this module does it on its own.
  it('never writes the password, under any field name or inside any text', async () => {
    const { lines, logger } = capture();
    const write = createKafkaLogCreator(logger, ['hunter2-secret'])(logLevel.DEBUG);
    write(
      entry('Connection', logLevel.ERROR, 'SASL PLAIN failed for hunter2-secret', {
        sasl: { mechanism: 'plain', password: 'hunter2-secret' },
        nested: { deeper: ['x hunter2-secret y'] },
        error: new Error('bad hunter2-secret'),
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    const text = JSON.stringify(lines);
    expect(text).not.toContain('hunter2-secret');
    expect(lines[0]).not.toHaveProperty('sasl');
    expect(lines[0]).toMatchObject({
      msg: 'SASL PLAIN failed for [redacted]',
      nested: { deeper: ['x [redacted] y'] },
      error: { message: 'bad [redacted]' },
    });
  });
});

describe('createScrubber', () => {
  it('leaves values alone when there is no secret', () => {
    expect(createScrubber([])({ a: 'text', n: 1 })).toEqual({ a: 'text', n: 1 });
  });
});
