import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet } from './test-support/http-get.js';
import { startTestWeb, type TestWeb } from './test-web.js';
import type { GroundTruth } from './truth/ground-truth.js';

describe('conditional GET', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  beforeAll(async () => {
    web = await startTestWeb();
    truth = web.groundTruth();
  });
  afterAll(() => web.close());

  const pagesOf = (origin: string) => truth.pages.filter((p) => p.startsWith(`${origin}/`));

  it('is offered by the blog and the mirror only', () => {
    const names = truth.validatorHosts.map((o) => truth.hosts.find((h) => h.origin === o)?.name);
    expect(names.sort()).toEqual(['blog', 'mirror']);
  });

  it('answers 304 to a matching If-None-Match or a recent If-Modified-Since, 200 otherwise', async () => {
    for (const origin of truth.validatorHosts) {
      const url = pagesOf(origin)[1]!;
      const first = await httpGet(url);
      const etag = String(first.headers.etag);
      const lastModified = String(first.headers['last-modified']);
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(Date.parse(lastModified)).toBeGreaterThan(0);

      const byTag = await httpGet(url, { 'if-none-match': `"other", ${etag}` });
      expect(byTag.status).toBe(304);
      expect(web.requests.notModified(url)).toBe(1);
      expect(byTag.body.length).toBe(0);
      expect(byTag.headers.etag).toBe(etag);
      expect((await httpGet(url, { 'if-modified-since': lastModified })).status).toBe(304);
      expect((await httpGet(url, { 'if-none-match': '"stale"' })).status).toBe(200);
      const older = new Date(Date.parse(lastModified) - 86_400_000).toUTCString();
      expect((await httpGet(url, { 'if-modified-since': older })).status).toBe(200);
    }
  });

  it('hands out new validators once the main content changes in a later round', async () => {
    const rate = new Map(truth.changeRates.map((c) => [c.url, c.probability]));
    const url = truth.pages.find((p) => truth.validatorHosts.some((o) => p.startsWith(`${o}/`)) && rate.get(p) === 1)!;
    const before = await httpGet(url);
    web.setRound(1);
    const after = await httpGet(url, { 'if-none-match': String(before.headers.etag) });
    web.setRound(0);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.headers['last-modified']).toBe('Fri, 02 Jan 2026 00:00:00 GMT');
  });

  it('sends no validators on noisy hosts and ignores conditional headers there', async () => {
    const news = truth.hosts.find((h) => h.name === 'news')!.origin;
    const response = await httpGet(`${news}/`, { 'if-none-match': '*', 'if-modified-since': new Date().toUTCString() });
    expect(response.status).toBe(200);
    expect(response.headers.etag).toBeUndefined();
    expect(response.headers['last-modified']).toBeUndefined();
  });
});
