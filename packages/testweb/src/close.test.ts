import { Agent, request } from 'node:http';
import { waitFor } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { startTestWeb } from './test-web.js';

const handles = () => {
  const active = process.getActiveResourcesInfo();
  return {
    servers: active.filter((r) => r === 'TCPServerWrap').length,
    sockets: active.filter((r) => r === 'TCPSocketWrap').length,
  };
};

describe('close()', () => {
  it('leaves no open handles, even with idle keep-alive, endless and slow responses open', async () => {
    const before = handles();
    const web = await startTestWeb();
    const truth = web.groundTruth();
    const agent = new Agent({ keepAlive: true });

    await new Promise<void>((resolve, reject) => {
      request(truth.pages[0]!, { agent }, (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end();
    });
    const endless = new Promise<void>((resolve) => {
      const req = request(truth.endless[0]!, { agent: false }, (res) => {
        res.on('data', () => undefined);
        res.on('close', resolve);
      });
      req.on('error', () => resolve());
      req.end();
    });
    const slow = new Promise<void>((resolve) => {
      request(truth.slow[0]!.url, { agent: false }, () => resolve())
        .on('error', () => resolve())
        .end();
    });
    await waitFor(
      () => web.requests.entries().length === 3,
      10_000,
      20,
      'the server to receive the page, endless and slow requests',
    );
    expect(handles().servers).toBe(before.servers + web.hosts.length);

    const started = performance.now();
    await web.close();
    expect(performance.now() - started).toBeLessThan(500);
    await Promise.all([endless, slow]);
    agent.destroy();
    await waitFor(
      () => {
        expect(handles()).toEqual(before);
        return true;
      },
      10_000,
      20,
      'every handle to close',
    );
    await web.close();
  });
});
