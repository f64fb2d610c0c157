import { createSocket, type Socket } from 'node:dgram';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalUrl } from '@crawler/core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../address-policy.js';
import { fetchUrl } from '../fetch-url.js';
import { plainPageOf } from './render-emissions.js';
import { createRenderRig, frontierRequest, type RenderRig } from './render-test-kit.js';

/**
 * The proof that a rendering page reaches nothing off the machine. Two traps on 127.0.0.2 stand
 * in for "anywhere the crawler may not go": a TCP listener and a UDP socket that count what
 * arrives. The site is on 127.0.0.1, the only admitted address, so anything at a trap came either
 * through the fetcher's client past the address policy or from Chromium's own network stack; the
 * control test shows an unguarded browser does reach them. Names resolve only through a stub (no
 * DNS query leaves), which maps the page's CDN to a documentation range the policy refuses.
 */
/** On the machine, but not admitted: FETCHER_ALLOW_ADDRESSES names only 127.0.0.1. */
const TRAP = '127.0.0.2';

// Browsers on a shared two-core machine: a render may take seconds, so tests get a minute.
describe('what a rendering page can reach', { timeout: 60_000 }, () => {
  let site: Server;
  let origin: string;
  let tcpTrap: TcpServer;
  let udpTrap: Socket;
  let tcpConnections = 0;
  let datagrams = 0;
  let rig: RenderRig;
  const resolved: string[] = [];
  const resolver: Resolver = async (hostname) => {
    resolved.push(hostname);
    if (hostname === 'cdn.offsite.test') return [{ address: '198.51.100.7', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };

  const page = (body: string) => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title>${body}`;
  const leaks = () => {
    const tcp = (tcpTrap.address() as { port: number }).port;
    const udp = udpTrap.address().port;
    return `<link rel="preconnect" href="http://${TRAP}:${tcp}/">
<script>
try { new WebSocket('ws://${TRAP}:${tcp}/socket'); } catch (e) {}
try { new EventSource('http://${TRAP}:${tcp}/events'); } catch (e) {}
var pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:${TRAP}:${udp}' }] });
pc.createDataChannel('x');
pc.createOffer().then(function (offer) { return pc.setLocalDescription(offer); });
</script>`;
  };

  beforeAll(async () => {
    tcpTrap = createTcpServer((socket) => {
      tcpConnections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => tcpTrap.listen(0, TRAP, resolve));
    udpTrap = createSocket('udp4').on('message', () => datagrams++);
    await new Promise<void>((resolve) => udpTrap.bind(0, TRAP, resolve));
    site = createHttpServer((request, response) => {
      const html =
        request.url === '/hostile'
          ? page(`</head><body><p>Hostile</p>${leaks()}
<script src="http://cdn.offsite.test/lib.js"></script>
<script>fetch('http://169.254.169.254/latest/meta-data/').catch(function () {});
document.body.insertAdjacentHTML('beforeend', '<a href="/after">after</a>');</script></body></html>`)
          : page(`</head><body><p>Control</p>${leaks()}</body></html>`);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
    const rules = join(await mkdtemp(join(tmpdir(), 'render-rules-')), 'rules.json');
    await writeFile(rules, JSON.stringify([{ pattern: '/hostile$' }]));
    rig = createRenderRig({ obeyRobots: false, renderRulesFile: rules, renderIdleMs: 1500 }, null, { resolver });
  });
  afterAll(async () => {
    await rig?.close();
    await new Promise((resolve) => site?.close(resolve));
    await new Promise((resolve) => tcpTrap?.close(resolve));
    udpTrap?.close();
  });

  it('a page loading off-machine resources gets them refused, and the browser sends no packet anywhere itself', async () => {
    const request = frontierRequest(`${origin}/hostile`);
    const fetched = await fetchUrl(rig.parts.deps, request);
    if (fetched.kind !== 'page') throw new Error(`expected a page, got ${fetched.outcome}`);
    const rendered = await rig.renderer.process(plainPageOf(request, fetched));
    if (rendered?.kind !== 'rendered') throw new Error(`expected a rendered page, got ${rendered?.kind}`);

    // The scripts ran, and what they asked for off the machine was refused by the address policy.
    expect(rendered.body.toString()).toContain('<a href="/after">after</a>');
    const refusals = new Map(rendered.network.refusals.map((r) => [canonicalUrl(r.url) ?? r.url, r.reason]));
    expect(refusals.get('http://cdn.offsite.test/lib.js')).toBe('blocked_address');
    expect(refusals.get('http://169.254.169.254/latest/meta-data/')).toBe('blocked_address');
    expect(refusals.get(`http://${TRAP}:${(tcpTrap.address() as { port: number }).port}/events`)).toBe(
      'blocked_address',
    );
    expect([...refusals.values()]).toContain('websocket');
    expect(resolved).toEqual(['cdn.offsite.test']);
    // Nothing reached the traps: not through the client, nor what interception does not see (preconnect, WebRTC).
    expect(tcpConnections).toBe(0);
    expect(datagrams).toBe(0);
  });

  it('the traps do catch a browser without the guards (control)', async () => {
    const browser = await chromium.launch({
      executablePath: rig.config.renderChromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const control = await browser.newPage();
      await control.goto(`${origin}/control`);
      await expect.poll(() => tcpConnections + datagrams, { timeout: 10_000 }).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  });
});
