import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '@crawler/core';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { EDGE_METADATA_HOST, startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from './address-policy.js';
import { loadFetcherConfig, OWN_SITE_BUDGET } from './config.js';
import { createFetcherParts, type FetcherParts } from './fetcher-service.js';
import { fetchUrl } from './fetch-url.js';

/** Names only this stub knows; nothing here ever asks real DNS or leaves loopback. */
const resolved: string[] = [];
const stub: Resolver = async (hostname) => {
  resolved.push(hostname);
  const table: Record<string, string> = {
    [EDGE_METADATA_HOST]: '169.254.169.254',
    'intranet.test': '10.0.0.5',
    'local.test': '127.0.0.1',
  };
  const address = table[hostname];
  if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
};

/** Counts TCP connections undici opens while `run` runs. */
async function connectionsDuring(run: () => Promise<unknown>): Promise<number> {
  let connected = 0;
  const onConnected = () => connected++;
  subscribe('undici:client:connected', onConnected);
  try {
    await run();
  } finally {
    unsubscribe('undici:client:connected', onConnected);
  }
  return connected;
}

describe('egress: the address policy on every request, and a proxy', () => {
  let web: TestWeb;
  const opened: FetcherParts[] = [];
  const at = (path: string) => `${web.hosts.find((host) => host.name === 'http')!.origin}${path}`;
  const fetcher = (overrides: Record<string, unknown>) => {
    const parts = createFetcherParts(
      loadFetcherConfig({
        env: {},
        overrides: { minDelayMs: 0, ...OWN_SITE_BUDGET, delayFactor: 0, totalTimeoutMs: 3000, ...overrides },
      }),
      new MemoryFingerprintStore(),
      silentLogger(),
      { resolver: stub },
    );
    opened.push(parts);
    return (url: string) => fetchUrl(parts.deps, { url, jobId: 'test', etag: null, lastModified: null });
  };

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'edge' });
  });
  afterAll(async () => {
    for (const parts of opened) {
      parts.gate.close();
      await parts.client.close();
    }
    await web.close();
  });

  it('refuses loopback by default: the local server receives no request, robots.txt included', async () => {
    const strict = fetcher({});
    const port = new URL(at('/')).port;
    for (const url of [at('/'), `http://local.test:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`]) {
      expect(await strict(url), url).toMatchObject({
        kind: 'status',
        outcome: 'blocked_address',
        errorCode: 'BLOCKED_ADDRESS',
        retriable: false,
      });
    }
    expect(web.requests.total()).toBe(0);
  });

  it('refuses cloud-metadata and private names after resolving them, without connecting', async () => {
    const admitted = fetcher({ allowAddresses: ['127.0.0.1'] });
    const connections = await connectionsDuring(async () => {
      expect(await admitted(`http://${EDGE_METADATA_HOST}/latest/meta-data/`)).toMatchObject({
        outcome: 'blocked_address',
      });
      expect(await admitted('http://intranet.test/admin')).toMatchObject({ outcome: 'blocked_address' });
      expect(await admitted('http://169.254.169.254/latest/meta-data/')).toMatchObject({ outcome: 'blocked_address' });
      expect(await admitted('http://[fd00:ec2::254]/')).toMatchObject({ outcome: 'blocked_address' });
      expect(await admitted('http://unknown-name.test/')).toMatchObject({ outcome: 'dns_failure', retriable: false });
    });
    expect(connections).toBe(0);
    expect(resolved).toEqual(expect.arrayContaining([EDGE_METADATA_HOST, 'intranet.test']));
  });

  it('checks the target of a redirect like any URL: a hop to the metadata host is refused', async () => {
    const following = fetcher({ allowAddresses: ['127.0.0.1'], maxRedirects: 5 });
    const hop = await following(at('/to-metadata'));
    expect(hop).toMatchObject({ outcome: 'redirect', redirectTo: `http://${EDGE_METADATA_HOST}/latest/meta-data/` });
    expect(await following((hop as { redirectTo: string }).redirectTo)).toMatchObject({ outcome: 'blocked_address' });
  });

  describe('through a forward proxy', () => {
    let proxy: Server;
    const proxied: string[] = [];
    beforeAll(async () => {
      // A plain forward proxy on loopback: absolute-form requests are passed on as they come.
      proxy = createServer((request, response) => {
        proxied.push(request.url ?? '');
        const upstream = httpRequest(request.url!, { method: request.method, headers: request.headers }, (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        });
        upstream.on('error', () => response.destroy());
        request.pipe(upstream);
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    });

    it('sends requests through the proxy, and still refuses blocked addresses before they reach it', async () => {
      const viaProxy = fetcher({
        allowAddresses: ['127.0.0.1'],
        proxyUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      });
      expect(await viaProxy(at('/encoding/gzip'))).toMatchObject({ kind: 'page' });
      expect(proxied).toContain(at('/encoding/gzip'));
      expect(proxied).toContain(at('/robots.txt'));
      const before = proxied.length;
      expect(await viaProxy('http://intranet.test/admin')).toMatchObject({ outcome: 'blocked_address' });
      expect(proxied.length).toBe(before);
    });
  });
});
