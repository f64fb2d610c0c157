import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DETECTION } from './detection/crawler-classifier.js';
import { GUARDED_ATTACHMENTS } from './hosts/guarded-host.js';
import { resolveOptions } from './options.js';
import { httpGet } from './test-support/http-get.js';
import { crawl } from './test-support/naive-crawler.js';
import { startTestWeb, type TestWeb } from './test-web.js';

describe('guarded profile: a site behind a log classifier', () => {
  let web: TestWeb | undefined;
  afterEach(async () => {
    await web?.close();
    web = undefined;
  });

  it('serves a small site whose ground truth a polite visitor finds, with the documented thresholds', async () => {
    const clock = { now: 0 };
    web = await startTestWeb({ profile: 'guarded', detection: { now: () => (clock.now += 1500) } });
    expect(web.detection?.thresholds).toEqual(DEFAULT_DETECTION);
    const truth = web.groundTruth();
    expect(truth.pages).toHaveLength(16);
    const found = await crawl(web.seeds, truth.maxDepth, []);
    expect([...found.pages].sort()).toEqual([...truth.pages].sort());
    expect(web.detection?.verdicts()).toEqual([]);
    expect(() => resolveOptions({ profile: 'guarded', hosts: 2 })).toThrow(/exactly 1 hosts/);
    expect(() => resolveOptions({ profile: 'guarded', detection: { minMeanDwellMs: 0 } })).toThrow(/minMeanDwellMs/);
  });

  it('blacklists a network that reads faster than a person, and shows it a challenge page with 200 from then on', async () => {
    web = await startTestWeb({ profile: 'guarded' });
    const origin = web.hosts[0]!.origin;
    let last;
    for (let i = 0; i < 12; i++) last = await httpGet(`${origin}${i === 0 ? '/' : `/p/${i}`}`);
    expect(web.detection?.verdicts()).toMatchObject([{ network: '127.0.0.0/24', rule: 'dwell', attachments: 0 }]);
    expect(last?.status).toBe(200);
    expect(last?.body.toString()).toContain('<title>Just a moment...</title>');
    expect((await httpGet(`${origin}/robots.txt`)).body.toString()).toContain('not a robot');
  });

  it('answers 403 instead when configured so, and spares a browser that fetches the attachments', async () => {
    web = await startTestWeb({ profile: 'guarded', detection: { blockAnswer: 'forbidden' } });
    const origin = web.hosts[0]!.origin;
    for (let i = 0; i < 12; i++) {
      expect((await httpGet(`${origin}/p/${i + 1}`)).status).toBe(200);
      for (const path of GUARDED_ATTACHMENTS) expect((await httpGet(`${origin}${path}`)).status).toBe(200);
    }
    expect(web.detection?.verdicts()).toEqual([]);
    await web.close();
    web = await startTestWeb({ profile: 'guarded', detection: { blockAnswer: 'forbidden', minPagesForDwell: 3 } });
    const other = web.hosts[0]!.origin;
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await httpGet(`${other}/p/${i + 1}`)).status);
    expect(statuses).toEqual([200, 200, 200, 403, 403]);
  });
});
