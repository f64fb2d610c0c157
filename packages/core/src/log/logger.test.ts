import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { escapeControlCharacters } from './control-characters.js';
import { createLogger, redactUrl } from './logger.js';
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

  it('hides the whole userinfo of a URL, up to its last @, however many URLs a line has', () => {
    const { logger, text } = capture([]);
    logger.info({ link: 'http://a:b@c@evil.test/x' }, 'see https://tok@h.test/ and ftp://u:p@f.test/');
    const out = text();
    expect(out).toContain('http://[redacted]@evil.test/x');
    expect(out).toContain('https://[redacted]@h.test/');
    expect(out).toContain('ftp://[redacted]@f.test/');
    expect(out).not.toMatch(/a:b|b@c|tok@|u:p/);
    expect(redactUrl('one http://u:p@a.test/ two http://v:q@b.test/')).toBe(
      'one http://[redacted]@a.test/ two http://[redacted]@b.test/',
    );
  });

  it('writes no raw control character: page text with ESC, CSI, newlines or bidi overrides stays one inert line', () => {
    const { logger, text } = capture([]);
    const title = 'Hi\u001b]8;;http://x.test\u0007link\u001b[2J\u009b31m\n{"level":"fatal"}\u202egnp.exe\u2028';
    logger.warn({ title }, `page ${title}`);
    const out = text();
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(out.trimEnd()).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect((JSON.parse(out) as { title: string }).title).toBe(title);
  });

  it('refuses a log level it does not know, naming LOG_LEVEL', () => {
    expect(() => createLogger('test', { level: 'loud' })).toThrow(ConfigError);
    expect(() => createLogger('test', { level: 'loud' })).toThrow(/LOG_LEVEL = "loud": must be one of fatal, error/);
  });
});

describe('escapeControlCharacters', () => {
  it('makes every control character visible and leaves ordinary text, accents and emoji alone', () => {
    expect(escapeControlCharacters('a\u001b[31mb\nc\rd\te\u0000f\u007fg\u009bh\u202ei\u2066j')).toBe(
      'a\\x1b[31mb\\nc\\rd\\te\\x00f\\x7fg\\x9bh\\u202ei\\u2066j',
    );
    expect(escapeControlCharacters('Crème brûlée – 東京 🙂')).toBe('Crème brûlée – 東京 🙂');
  });
});
