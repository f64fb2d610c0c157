import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { describeSettings, loadConfig, setting } from './define-config.js';

const spec = {
  concurrency: setting('FETCHER_CONCURRENCY', z.number().int().min(1).default(50), 'Fetches in flight at once.'),
  robots: setting('FETCHER_OBEY_ROBOTS', z.boolean().default(true), 'Obey robots.txt.'),
  brokers: setting(
    'KAFKA_BROKERS',
    z.array(z.string()).default(['127.0.0.1:9092']),
    'Kafka bootstrap servers, comma separated.',
  ),
  password: setting('KAFKA_SASL_PASSWORD', z.string().optional(), 'SASL password.', { secret: true }),
};

describe('loadConfig', () => {
  it('uses defaults, then file, then environment, then overrides', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'crawler.json');
    writeFileSync(file, JSON.stringify({ fetcher: { concurrency: 7 }, robots: false }));
    expect(loadConfig('fetcher', spec, { env: {} }).concurrency).toBe(50);
    expect(loadConfig('fetcher', spec, { env: {}, file }).concurrency).toBe(7);
    expect(loadConfig('fetcher', spec, { env: {}, file }).robots).toBe(false);
    expect(loadConfig('fetcher', spec, { env: { FETCHER_CONCURRENCY: '9' }, file }).concurrency).toBe(9);
    expect(
      loadConfig('fetcher', spec, { env: { FETCHER_CONCURRENCY: '9' }, file, overrides: { concurrency: 3 } })
        .concurrency,
    ).toBe(3);
    expect(loadConfig('fetcher', spec, { env: { KAFKA_BROKERS: 'a:1, b:2' } }).brokers).toEqual(['a:1', 'b:2']);
  });

  it('freezes the result', () => {
    const config = loadConfig('fetcher', spec, { env: {} });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names the variable, the bad value and the rule when a value is invalid', () => {
    expect(() => loadConfig('fetcher', spec, { env: { FETCHER_CONCURRENCY: 'lots' } })).toThrow(ConfigError);
    expect(() => loadConfig('fetcher', spec, { env: { FETCHER_CONCURRENCY: 'lots' } })).toThrow(
      /FETCHER_CONCURRENCY \(concurrency\) = "lots".*Fetches in flight/,
    );
    expect(() => loadConfig('fetcher', spec, { env: { FETCHER_OBEY_ROBOTS: 'maybe' } })).toThrow(/FETCHER_OBEY_ROBOTS/);
  });

  it('never prints a secret value in an error', () => {
    const strict = { password: setting('KAFKA_SASL_PASSWORD', z.string().min(20), 'SASL password.', { secret: true }) };
    expect(() => loadConfig('fetcher', strict, { env: { KAFKA_SASL_PASSWORD: 'hunter2' } })).toThrow(/\(hidden\)/);
    try {
      loadConfig('fetcher', strict, { env: { KAFKA_SASL_PASSWORD: 'hunter2' } });
    } catch (error) {
      expect(String(error)).not.toContain('hunter2');
    }
  });

  it('redacts credentials inside a URL-valued setting it prints', () => {
    const urls = { url: setting('SOME_URL', z.url().startsWith('https:'), 'Endpoint.') };
    expect(() => loadConfig('x', urls, { env: { SOME_URL: 'http://admin:s3cret@db.example:9200' } })).toThrow(
      /\[redacted\]@db.example/,
    );
    try {
      loadConfig('x', urls, { env: { SOME_URL: 'http://admin:s3cret@db.example:9200' } });
    } catch (error) {
      expect(String(error)).not.toContain('s3cret');
    }
  });

  it('reports an unreadable config file by name', () => {
    expect(() => loadConfig('fetcher', spec, { env: { CRAWLER_CONFIG: '/nonexistent/crawler.json' } })).toThrow(
      /config file \/nonexistent\/crawler.json/,
    );
  });

  it('refuses a key no setting has, at the top level or in a section, and names the near one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const load = (content: unknown) => {
      const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, JSON.stringify(content));
      return () => loadConfig('fetcher', spec, { env: { CRAWLER_CONFIG: file } });
    };
    expect(load({ fetcher: { concurrencyy: 3 } })).toThrow(
      /config file .*\(CRAWLER_CONFIG\): unknown key fetcher\.concurrencyy \(did you mean fetcher\.concurrency\?\)/,
    );
    expect(load({ bogus: 1 })).toThrow(/unknown key bogus; the keys are listed in docs\/CONFIGURATION.md/);
    expect(load({ scheduler: { leaseMz: 1 } })).toThrow(
      /unknown key scheduler\.leaseMz \(did you mean scheduler\.leaseMs\?\)/,
    );
    expect(load({ fetcher: 5 })).toThrow(/"fetcher" must be an object of fetcher settings/);
    // Another service's section and keys are its business: a shared file passes every service.
    expect(
      load({ concurrency: 4, scheduler: { leaseMs: 60_000 }, leaseMs: 1000, kafka: { brokers: ['k:1'] } }),
    ).not.toThrow();
  });

  it('documents every setting with its variable and default', () => {
    const lines = describeSettings(spec);
    expect(lines[0]).toContain('FETCHER_CONCURRENCY');
    expect(lines[0]).toContain('(default 50)');
    expect(lines[3]).not.toContain('default');
  });
});
