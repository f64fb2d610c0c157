import { request } from 'node:http';
import { waitFor } from '@crawler/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebModel } from '../model/build-web.js';
import { resolveOptions } from '../options.js';
import { createRequestHandler } from './handle-request.js';
import { closeServer, type HostListener, listenHosts } from './listen-hosts.js';
import { createWebState, type WebState } from './web-state.js';

// Built by hand rather than through startTestWeb to watch the server's own timer set.
describe('the endless page', () => {
  let listeners: HostListener[];
  let state: WebState;
  let endlessUrl: string;
  beforeAll(async () => {
    const options = resolveOptions();
    listeners = await listenHosts(options.hosts, undefined);
    const web = buildWebModel(
      options,
      listeners.map((l) => l.origin),
    );
    state = createWebState(web);
    web.hosts.forEach((host, i) => listeners[i]!.attach(createRequestHandler(state, host)));
    endlessUrl = state.truth().endless[0]!;
  });
  afterAll(() => Promise.all(listeners.map((l) => closeServer(l.server))));

  it('drips bytes while the client reads and stops as soon as the client goes away', async () => {
    const received = await new Promise<number>((resolve, reject) => {
      let bytes = 0;
      const req = request(endlessUrl, { agent: false }, (res) => {
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          expect(state.timers.size).toBe(1);
          if (bytes > 150) {
            req.destroy();
            resolve(bytes);
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(received).toBeGreaterThan(150);
    await waitFor(() => state.timers.size === 0, 10_000, 20, 'the drip timer to stop once the client left');
  });

  it('answers HEAD with headers only and no timer', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(endlessUrl, { method: 'HEAD', agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    expect(state.timers.size).toBe(0);
  });
});
