import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet, mainOf } from './test-support/http-get.js';
import { startTestWeb, type TestWeb } from './test-web.js';
import type { GroundTruth } from './truth/ground-truth.js';

const body = async (url: string) => (await httpGet(url)).body.toString();
const paragraphsOf = (html: string) => [...html.matchAll(/<p>([^<]*)<\/p>/g)].map((m) => m[1]!);
const sentencesOf = (html: string) => paragraphsOf(html).flatMap((p) => p.split(/(?<=\.) /));

describe('duplicate truth', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  beforeAll(async () => {
    web = await startTestWeb();
    truth = web.groundTruth();
  });
  afterAll(() => web.close());

  it('groups byte-identical bodies, across hosts and path spellings', async () => {
    expect(truth.exactDuplicates.length).toBeGreaterThanOrEqual(3);
    expect(truth.exactDuplicates.some((g) => new Set(g.map((u) => new URL(u).origin)).size > 1)).toBe(true);
    for (const group of truth.exactDuplicates) {
      const bodies = await Promise.all(group.map(body));
      expect(new Set(bodies).size, group.join(' ')).toBe(1);
      expect(await body(group[0]!)).toBe(bodies[0]);
    }
  });

  it('groups identical main content under template noise that changes on every request', async () => {
    expect(truth.contentDuplicates.length).toBeGreaterThanOrEqual(2);
    for (const group of truth.contentDuplicates) {
      const bodies = await Promise.all(group.map(body));
      expect(new Set(bodies.map(mainOf)).size).toBe(1);
      expect(new Set(bodies).size).toBe(group.length);
      expect(await body(group[0]!)).not.toBe(await body(group[0]!));
    }
  });

  it('pairs near duplicates: a reprint in another template and a copy with one sentence edited', async () => {
    const kinds = new Set(truth.nearDuplicates.map((p) => p.kind));
    expect(kinds).toEqual(new Set(['reprint-other-template', 'small-edit', 'noise-only']));
    for (const pair of truth.nearDuplicates) {
      const [a, b] = [await body(pair.a), await body(pair.b)];
      const [sa, sb] = [sentencesOf(mainOf(a)!), sentencesOf(mainOf(b)!)];
      const onlyA = sa.filter((s) => !sb.includes(s));
      const onlyB = sb.filter((s) => !sa.includes(s));
      if (pair.kind === 'small-edit') {
        expect([onlyA.length, onlyB.length]).toEqual([1, 1]);
      } else if (pair.kind === 'reprint-other-template') {
        expect(onlyA).toEqual([]);
        expect(onlyB).toHaveLength(1);
        expect(a.replace(/<main>[\s\S]*<\/main>/, '')).not.toBe(b.replace(/<main>[\s\S]*<\/main>/, ''));
      } else {
        expect(mainOf(a)).toBe(mainOf(b));
      }
    }
  });

  it('pairs short items in one template that share no sentence', async () => {
    const briefs = truth.notNearDuplicates.filter((p) => p.kind === 'short-items-same-template');
    expect(briefs.length).toBeGreaterThanOrEqual(5);
    expect(truth.notNearDuplicates.some((p) => p.kind === 'different-articles')).toBe(true);
    for (const pair of truth.notNearDuplicates) {
      const [a, b] = [mainOf(await body(pair.a))!, mainOf(await body(pair.b))!];
      const shared = sentencesOf(a).filter((s) => sentencesOf(b).includes(s));
      expect(shared).toEqual([]);
      if (pair.kind === 'short-items-same-template') expect(sentencesOf(a)).toHaveLength(2);
    }
  });
});
