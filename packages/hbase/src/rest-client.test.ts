import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { BackendError, silentLogger } from '@crawler/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createHbasePageStore, splitRows } from './hbase-page-store.js';
import { cellSetJson, createHbaseRestClient, encodeRowKey, parseCellSet } from './rest-client.js';
import { localHbaseConfig } from './testing/index.js';

const servers: Server[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  for (const server of servers.splice(0)) {
    if ('closeAllConnections' in server) (server as unknown as { closeAllConnections(): void }).closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A fake gateway on listen(0) answering every request with `handler`; records what it saw. */
async function fakeGateway(
  handler: (request: IncomingMessage, body: string, response: ServerResponse) => void,
): Promise<{ url: string; seen: { method: string; url: string; authorization?: string; body: string }[] }> {
  const seen: { method: string; url: string; authorization?: string; body: string }[] = [];
  const server = createHttpServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization, body });
      handler(request, body, response);
    });
  });
  servers.push(server as unknown as Server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

async function caught(work: Promise<unknown>): Promise<BackendError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(BackendError);
  return error as BackendError;
}

describe('REST gateway client', () => {
  it('encodes row keys so the gateway reads them back exactly (no * glob, / and ? escaped)', () => {
    expect(encodeRowKey('com,example)/a/b?x=1&y=*')).toBe('com%2Cexample)%2Fa%2Fb%3Fx%3D1%26y%3D%2A');
  });

  it('writes and parses cell sets binary-safe, base64 in JSON', () => {
    const value = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0a]);
    const rows = [{ key: 'com,example)/é', cells: [{ column: 'p:body', timestamp: 1_790_000_000_000, value }] }];
    const json = cellSetJson(rows);
    expect(JSON.parse(json).Row[0].Cell[0]).toEqual({
      column: Buffer.from('p:body').toString('base64'),
      timestamp: 1_790_000_000_000,
      $: value.toString('base64'),
    });
    expect(parseCellSet(json)).toEqual(rows);
  });

  it('reads a missing row as no cells, and maps 4xx to permanent and 5xx to retriable errors', async () => {
    let status = 404;
    const gateway = await fakeGateway((_request, _body, response) => {
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(
        status === 404
          ? 'Not found\r\n'
          : status === 400
            ? 'Bad request\r\njava.lang.IllegalArgumentException: KeyValue size too large\n\tat org.apache...'
            : 'Unavailable\r\n',
      );
    });
    const client = createHbaseRestClient({ url: gateway.url, requestTimeoutMs: 5000 });
    expect(await client.getRow('pages', 'com,example)/', { column: 'p', versions: 3 })).toEqual([]);
    expect(gateway.seen[0]!.url).toBe('/pages/com%2Cexample)%2F/p?v=3');
    status = 400;
    const rejected = await caught(
      client.putRows('pages', [
        { key: 'com,example)/big', cells: [{ column: 'p:body', timestamp: 1, value: Buffer.from('SECRET-BODY') }] },
      ]),
    );
    expect(rejected.retriable).toBe(false);
    expect(rejected.message).toBe(
      'hbase put of 1 row(s) on table pages (row "com,example)/big") failed: HTTP 400 java.lang.IllegalArgumentException: KeyValue size too large',
    );
    status = 503;
    const unavailable = await caught(client.getRow('pages', 'r', { column: 'p', versions: 1 }));
    expect(unavailable.retriable).toBe(true);
    expect(unavailable.message).toMatch(/HTTP 503 Unavailable/);
  });

  it('sends credentials from the URL as a Basic header and never shows them', async () => {
    const gateway = await fakeGateway((_request, _body, response) => {
      response.writeHead(500);
      response.end('boom');
    });
    const client = createHbaseRestClient({
      url: gateway.url.replace('//', '//crawler:s3cret@'),
      requestTimeoutMs: 5000,
    });
    const error = await caught(client.getSchema('pages'));
    expect(gateway.seen[0]!.authorization).toBe(`Basic ${Buffer.from('crawler:s3cret').toString('base64')}`);
    expect(client.endpoint).not.toContain('s3cret');
    expect(error.message).not.toContain('s3cret');
  });

  it('gives up on a gateway that accepts connections but never answers, within the request timeout', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => void sockets.push(socket));
    servers.push(silent);
    cleanups.push(() => sockets.forEach((socket) => socket.destroy()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const started = Date.now();
    const error = await caught(
      createHbasePageStore(localHbaseConfig({ HBASE_REST_URL: url, HBASE_REQUEST_TIMEOUT_MS: '300' }), silentLogger()),
    );
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error.retriable).toBe(true);
    expect(error.message).toMatch(/version check .* no answer in time/);
  });
});

describe('splitRows', () => {
  const row = (key: string, bytes: number) => ({
    key,
    cells: [{ column: 'p:body', timestamp: 1, value: Buffer.alloc(bytes) }],
  });

  it('cuts requests at the byte budget, never splitting a row, keeping order', () => {
    const rows = [row('a', 400), row('b', 400), row('c', 400), row('d', 2000), row('e', 10)];
    expect(splitRows(rows, 1000).map((batch) => batch.map((entry) => entry.key).join(''))).toEqual([
      'ab',
      'c',
      'd',
      'e',
    ]);
    expect(splitRows([], 1000)).toEqual([]);
  });
});
