import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import {
  Codec,
  createLogger,
  hostQueueKey,
  Schemas,
  urlId,
  type FrontierRequest,
  type StageContext,
  type StatusUpdate,
} from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFetcherConfig, OWN_SITE_BUDGET } from './config.js';
import { createFetcherParts, type FetcherParts } from './fetcher-service.js';
import { createFetcherStage } from './fetcher-stage.js';
import { fetchUrl } from './fetch-url.js';

const fixture = (name: string) => readFileSync(new URL(`./tls-fixture/${name}`, import.meta.url), 'utf8');
const key = fixture('key.pem');
const cert = fixture('cert.pem');
/** Lines of base64 in the PEM files: none of them may show up in a log line or a status record. */
const pemLines = [key, cert].flatMap((pem) =>
  pem.split('\n').filter((line) => line.length > 0 && !line.startsWith('-----')),
);

describe('a site whose certificate the fetcher does not trust', () => {
  let server: Server;
  let origin: string;
  let handled = 0;
  const opened: FetcherParts[] = [];
  const logged: string[] = [];
  const logger = createLogger('fetcher', {
    level: 'trace',
    secrets: [],
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    }),
  });
  const partsWith = (overrides: Record<string, unknown>) => {
    const parts = createFetcherParts(
      loadFetcherConfig({
        env: {},
        overrides: { allowAddresses: ['127.0.0.1'], minDelayMs: 0, ...OWN_SITE_BUDGET, ...overrides },
      }),
      new MemoryFingerprintStore(),
      logger,
    );
    opened.push(parts);
    return parts;
  };

  beforeAll(async () => {
    server = createServer({ key, cert }, (_request, response) => {
      handled++;
      response.setHeader('content-type', 'text/html').end('<p>page</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const parts of opened) {
      parts.gate.close();
      await parts.client.close();
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('ends the fetch as tls_error with the TLS code, not retriable, and sends no request', async () => {
    const parts = partsWith({ obeyRobots: false });
    const url = `${origin}/page`;
    const request: FrontierRequest = {
      ...sampleMessages[Schemas.FrontierRequest],
      url,
      urlId: urlId(url),
      host: new URL(url).host,
      queueKey: hostQueueKey(new URL(url)),
    };
    const stage = createFetcherStage({ deps: parts.deps, bodyCompression: 'gzip', metrics: parts.metrics });
    const [emission, ...more] = await stage.handle(request, { log: logger, traceId: 'trace' } as StageContext);
    expect(more).toEqual([]);
    const codec = new Codec();
    const status = codec.decode<StatusUpdate>(codec.encode(emission!.schema, emission!.value));
    // The scheduler retries only retriable outcomes: an untrusted certificate waits for the next re-crawl instead.
    expect(status).toMatchObject({
      url,
      outcome: 'tls_error',
      retriable: false,
      errorCode: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      httpStatus: null,
    });
    expect(parts.metrics.outcomes.get('tls_error')).toBe(1);
    expect(handled).toBe(0);
    for (const line of pemLines) expect(JSON.stringify(status)).not.toContain(line);
  });

  it('holds the site off when robots.txt itself fails TLS, says so, and logs the code but no certificate data', async () => {
    const parts = partsWith({ obeyRobots: true });
    const result = await fetchUrl(parts.deps, { url: `${origin}/page`, jobId: 'test', etag: null, lastModified: null });
    expect(result).toMatchObject({
      kind: 'status',
      outcome: 'tls_error',
      retriable: false,
      errorCode: 'ROBOTS_UNAVAILABLE',
      httpStatus: null,
    });
    expect((result as { errorMessage: string }).errorMessage).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(handled).toBe(0);
    const text = logged.join('');
    expect(text).toContain('"code":"DEPTH_ZERO_SELF_SIGNED_CERT"');
    expect(text).not.toContain('-----BEGIN');
    for (const line of pemLines) expect(text).not.toContain(line);
  });
});
