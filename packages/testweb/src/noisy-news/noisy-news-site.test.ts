import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../render/escape-html.js';
import { httpGet } from '../test-support/http-get.js';
import { buildNoisyNews } from './noisy-news-model.js';
import { startNoisyNewsSite, type NoisyNewsSite } from './noisy-news-site.js';

describe('noisy news site', () => {
  let site: NoisyNewsSite;
  beforeAll(async () => {
    site = await startNoisyNewsSite({ seed: 3 });
  });
  afterAll(() => site.close());

  it('serves every page of its truth, with different noise on every request', async () => {
    const truth = site.truth();
    expect(truth.pages.length).toBeGreaterThan(60);
    for (const url of truth.pages) expect((await httpGet(url)).status).toBe(200);
    const story = `${site.origins.ledger}/story/1`;
    const [first, second] = [(await httpGet(story)).body.toString(), (await httpGet(story)).body.toString()];
    expect(first).not.toBe(second);
    expect(first).toMatch(/updated \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(first).toContain('Sponsored: ');
  });

  it('lists as changed exactly the pages whose own text changed since the last round', () => {
    const model = buildNoisyNews(3, { stories: 48, briefs: 8 });
    const urlOf = (path: string, host: string) => `${host === 'wire' ? site.origins.wire : site.origins.ledger}${path}`;
    let changes = 0;
    for (let round = 1; round <= 6; round++) {
      site.setRound(round);
      const truth = site.truth();
      const changed = model.pages
        .filter((page) => page.paragraphs(round).join('\n') !== page.paragraphs(round - 1).join('\n'))
        .map((page) => urlOf(page.path, page.host));
      expect(changed.sort()).toEqual(truth.changed);
      expect(truth.changeKinds.map((entry) => entry.url)).toEqual(truth.changed);
      changes += truth.changed.length;
    }
    site.setRound(0);
    expect(changes).toBeGreaterThan(30);
    expect(new Set(site.truth().changed)).toEqual(new Set());
  });

  it('serves its near duplicates as declared: reprints carry the story, a corrected copy differs in one paragraph', async () => {
    const model = buildNoisyNews(3, { stories: 48, briefs: 8 });
    const truth = site.truth();
    for (const pair of truth.nearDuplicates) {
      const story = model.pages.find((page) => `${site.origins.ledger}${page.path}` === pair.a)!;
      const copy = (await httpGet(pair.b)).body.toString();
      const missing = story.paragraphs(0).filter((paragraph) => !copy.includes(escapeHtml(paragraph)));
      expect(missing).toHaveLength(pair.kind === 'small-edit' ? 1 : 0);
    }
    expect(truth.nearDuplicates.map((pair) => pair.kind)).toEqual(
      expect.arrayContaining(['reprint-other-template', 'small-edit', 'noise-only']),
    );
  });
});
