import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { secretValuesOf } from './secret-scrubber.js';

function capture(secrets: string[]) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('test', { level: 'debug', destination, secrets }), text: () => lines.join('') };
}

describe('logger', () => {
  it('never writes a secret value, wherever it appears: message, nested field, error stack, escaped in JSON', () => {
    const { logger, text } = capture(['s3cr3t-pass', 'tok"en\\value']);
    logger.info({ config: { endpoint: 'http://host:1/', note: 'uses s3cr3t-pass' } }, 'connecting with s3cr3t-pass');
    logger.error({ err: new Error('auth failed for tok"en\\value') }, 'failed');
    logger.child({ component: 'x' }).warn({ list: ['a', 's3cr3t-pass'] }, 'child line');
    const out = text();
    expect(out).not.toContain('s3cr3t-pass');
    expect(out).not.toContain('tok\\"en\\\\value');
    expect(out).not.toContain('tok"en');
    expect(out.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(5);
    for (const line of out.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('hides credentials in any URL and fields named like secrets, but leaves contact addresses alone', () => {
    const { logger, text } = capture([]);
    logger.info(
      { broker: 'redis://user:pw@10.0.0.1:6379/0', password: 'p', headers: { authorization: 'Bearer x' } },
      'proxy http://u:p@proxy:3128 failed',
    );
    logger.info({ userAgent: 'crawler/0.1 (+https://crawler.invalid/about; crawler@crawler.invalid)' }, 'started');
    const out = text();
    expect(out).toContain('redis://[redacted]@10.0.0.1:6379/0');
    expect(out).toContain('http://[redacted]@proxy:3128');
    expect(out).not.toMatch(/"password":"p"|Bearer x/);
    expect(out).toContain('(+https://crawler.invalid/about; crawler@crawler.invalid)');
  });

  it('takes the secrets from the environment: secret-named variables and URL credentials', () => {
    const found = secretValuesOf({
      KAFKA_SASL_PASSWORD: 'kafka-pw-1',
      ELASTICSEARCH_API_KEY: 'ZXM6a2V5',
      REDIS_URL: 'redis://:redis%2Fpw@127.0.0.1:6379',
      HBASE_REST_URL: 'http://hb-user:hb-pass@127.0.0.1:8080',
      KAFKA_BROKERS: '127.0.0.1:9092',
      ADMIN_TOKEN: 'abc',
    });
    expect(found).toEqual(
      expect.arrayContaining(['kafka-pw-1', 'ZXM6a2V5', 'redis%2Fpw', 'redis/pw', 'hb-user:hb-pass', 'hb-pass']),
    );
    expect(found).not.toContain('127.0.0.1:9092');
    // Too short to hunt for in every line; fields named token are still redacted.
    expect(found).not.toContain('abc');
  });
});
