import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { JudgeUnavailableError } from '../errors.js';
import { createHttpJudge } from './http-judge.js';

type Handler = (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => void;
let server: Server | undefined;

async function classifier(handler: Handler): Promise<{ url: string; calls: Record<string, unknown>[] }> {
  const calls: Record<string, unknown>[] = [];
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      calls.push({ ...body, authorization: req.headers.authorization });
      handler(body, req, res);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/classify`, calls };
}

const input = { url: 'http://a.test/x', title: 'T', text: 'some text', lang: 'en' };

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('http judge', () => {
  it('posts the page and reads the verdict', async () => {
    const { url, calls } = await classifier((_body, _req, res) =>
      res.end(JSON.stringify({ verdict: 'harmful', category: 'spam', reasons: ['score 0.97'] })),
    );
    const judge = createHttpJudge({ url, timeoutMs: 1000, attempts: 1, token: 's3cret' });
    expect(await judge.judge(input)).toEqual({ verdict: 'harmful', category: 'spam', reasons: ['score 0.97'] });
    expect(calls).toEqual([
      { url: 'http://a.test/x', title: 'T', text: 'some text', lang: 'en', authorization: 'Bearer s3cret' },
    ]);
  });

  it('retries server errors, throttling and timeouts', async () => {
    let n = 0;
    const { url, calls } = await classifier((_body, _req, res) => {
      n++;
      if (n === 1) return void res.writeHead(503).end();
      if (n === 2) return void res.writeHead(429, { 'retry-after': '0' }).end();
      if (n === 3) return; // never answers: the attempt times out
      res.end(JSON.stringify({ verdict: 'ok' }));
    });
    const judge = createHttpJudge({ url, timeoutMs: 200, attempts: 4, backoffMs: 5 });
    expect(await judge.judge(input)).toEqual({ verdict: 'ok', category: null, reasons: [] });
    expect(calls).toHaveLength(4);
  });

  it('gives up after its attempts, and at once on a refusal or a malformed answer', async () => {
    const { url, calls } = await classifier((body, _req, res) => {
      if (body.title === 'refused') return void res.writeHead(400).end('bad request');
      if (body.title === 'garbled') return void res.end('{"label": 1}');
      res.writeHead(500).end();
    });
    const judge = createHttpJudge({ url, timeoutMs: 500, attempts: 3, backoffMs: 5 });
    await expect(judge.judge(input)).rejects.toThrow(/HTTP 500 \(after 3 attempts\)/);
    expect(calls).toHaveLength(3);
    const refused = judge.judge({ ...input, title: 'refused' });
    await expect(refused).rejects.toBeInstanceOf(JudgeUnavailableError);
    await expect(refused).rejects.toMatchObject({ retriable: false });
    await expect(judge.judge({ ...input, title: 'garbled' })).rejects.toThrow(/other than \{verdict/);
    expect(calls).toHaveLength(5);
  });
});
