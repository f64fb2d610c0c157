import { describe, expect, it } from 'vitest';
import { startHealthServer } from './health-server.js';

describe('health server', () => {
  it('answers /healthz and /readyz from the checks, 404 elsewhere', async () => {
    let ready = false;
    const server = await startHealthServer('127.0.0.1', 0, {
      live: () => true,
      ready: () => ready,
      details: () => ({ processed: 7 }),
    });
    const get = (path: string) => fetch(`http://127.0.0.1:${server.port}${path}`);
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(503);
    ready = true;
    const response = await get('/readyz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', processed: 7 });
    expect((await get('/metrics-not-here')).status).toBe(404);
    await server.close();
  });

  it('serves Prometheus text on /metrics', async () => {
    const server = await startHealthServer('127.0.0.1', 0, {
      live: () => true,
      ready: () => true,
      metrics: async () => 'crawler_up 1\n',
    });
    const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    expect(await response.text()).toBe('crawler_up 1\n');
    await server.close();
  });
});
