import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrl } from '../fetch-url.js';
import { plainPageOf } from './render-emissions.js';
import { createRenderRig, frontierRequest, type RenderRig } from './render-test-kit.js';

/** Pages that never settle: one waits on a request the server never answers (a long poll), one spins in a loop that blocks its renderer. */
const PAGES: Record<string, string> = {
  '/polling': `<p>Live</p><script>document.body.insertAdjacentHTML('beforeend', '<a href="/seen">seen</a>');
fetch('/long-poll').catch(function () {});</script>`,
  '/spin': `<p>Busy</p><script>document.body.insertAdjacentHTML('beforeend', '<a href="/seen">seen</a>');
for (;;) {}</script>`,
  '/calm': `<p>Calm</p><script>document.body.insertAdjacentHTML('beforeend', '<a href="/calm-link">calm</a>');</script>`,
  '/held': `<p>Held</p><script src="/held.js"></script>`,
};

// Browsers on a shared two-core machine: a render may take seconds, so tests get a minute.
describe('per-page time limit', { timeout: 60_000 }, () => {
  let site: Server;
  let origin: string;
  let rig: RenderRig;
  const render = async (path: string) => {
    const request = frontierRequest(`${origin}${path}`);
    const fetched = await fetchUrl(rig.parts.deps, request);
    if (fetched.kind !== 'page') throw new Error(`expected a page, got ${fetched.outcome}`);
    return rig.renderer.process(plainPageOf(request, fetched));
  };

  beforeAll(async () => {
    site = createServer((request, response) => {
      if (request.url === '/long-poll') return; // never answered: the page always has a request in flight
      const body = PAGES[request.url ?? ''];
      if (!body) return response.writeHead(404).end();
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
    const rules = join(await mkdtemp(join(tmpdir(), 'render-rules-')), 'rules.json');
    await writeFile(rules, JSON.stringify([{ pattern: '.' }]));
    rig = createRenderRig({ obeyRobots: false, renderRulesFile: rules, renderTimeoutMs: 1500, renderPages: 1 }, null);
  });
  afterAll(async () => {
    await rig?.close();
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('keeps the DOM of a page that never settles as it stands at the limit, flagged', async () => {
    const rendered = await render('/polling');
    expect(rendered?.kind).toBe('rendered');
    if (rendered?.kind !== 'rendered') return;
    expect(rendered.meta).toMatchObject({ rendered: 'true', renderTimedOut: 'true' });
    expect(rendered.body.toString()).toContain('<a href="/seen">seen</a>');
  });

  it('gives up a page whose script blocks the browser (an outcome, not a crash), and the next page renders', async () => {
    const stuck = await render('/spin');
    expect(stuck).toEqual({ kind: 'unrendered', meta: { renderError: 'RENDER_TIMEOUT' } });
    const next = await render('/calm');
    expect(next?.kind).toBe('rendered');
    if (next?.kind === 'rendered') expect(next.body.toString()).toContain('/calm-link');
  });

  it('refuses at once a sub-request whose queue is paused past the page’s time, instead of waiting it out', async () => {
    const request = frontierRequest(`${origin}/held`);
    const fetched = await fetchUrl(rig.parts.deps, request);
    if (fetched.kind !== 'page') throw new Error(`expected a page, got ${fetched.outcome}`);
    // The site said 429 with a minute's Retry-After (to another request of the same queue).
    (await rig.parts.gate.acquire(new URL(origin).host)).release({
      signal: 'busy',
      durationMs: 1,
      retryAfterMs: 60_000,
    });
    const rendered = await rig.renderer.process(plainPageOf(request, fetched));
    if (rendered?.kind !== 'rendered') throw new Error(`expected a rendered page, got ${rendered?.kind}`);
    expect(rendered.network.refusals).toContainEqual({ url: `${origin}/held.js`, reason: 'throttled' });
    expect(rendered.meta.renderTimedOut).toBeUndefined();
  });
});
