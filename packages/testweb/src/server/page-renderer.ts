import { createHash } from 'node:crypto';
import { lastChangedRound } from '../model/content-editions.js';
import { roundDate } from '../model/round-dates.js';
import { findResource, type HostModel, type PageSpec } from '../model/web-model.js';
import { encodePage, pageContentType } from '../render/encode-page.js';
import { type Noise, pickAd } from '../render/noise.js';
import { renderMain } from '../render/render-main.js';
import { renderPageHtml } from '../render/render-page.js';

export interface RenderedPage {
  body: Buffer;
  contentType: string;
  /** Set only on hosts that send validators. */
  etag: string | undefined;
  lastModified: string | undefined;
}

export interface PageRenderer {
  render(host: HostModel, page: PageSpec, round: number): RenderedPage;
}

const RELATED_COUNT = 3;

/**
 * Renders pages, caching per round: the <main> element always, the whole body when the host has no
 * noise. Noisy hosts get a fresh timestamp, visit counter, ad and related box on every request.
 */
export function createPageRenderer(seed: number): PageRenderer {
  const cache = new WeakMap<PageSpec, { round: number; main: string; edition: number; whole?: RenderedPage }>();
  const visits = new Map<HostModel, number>();

  const prepare = (page: PageSpec, round: number) => {
    let entry = cache.get(page);
    if (!entry || entry.round !== round) {
      const edition = lastChangedRound(seed, page.content.key, page.content.changeRate, round);
      entry = { round, edition, main: renderMain(page, edition, page.template === 'legacy') };
      cache.set(page, entry);
    }
    return entry;
  };

  const noiseFor = (host: HostModel): Noise => {
    const visit = (visits.get(host) ?? 0) + 1;
    visits.set(host, visit);
    const pool = host.relatedPool;
    const related = Array.from({ length: Math.min(RELATED_COUNT, pool.length) }, (_, k) => {
      const path = pool[(visit * RELATED_COUNT + k) % pool.length] as string;
      const target = findResource(host, path);
      return { href: path, text: target && 'page' in target ? target.page.title : path };
    });
    return { timestamp: new Date().toISOString(), visit, ad: pickAd(visit), related };
  };

  return {
    render(host, page, round) {
      const entry = prepare(page, round);
      if (entry.whole) return entry.whole;
      const html = renderPageHtml(page, entry.main, entry.edition, host.noise ? noiseFor(host) : undefined);
      const rendered: RenderedPage = {
        body: encodePage(page, html),
        contentType: pageContentType(page),
        etag: host.validators
          ? `"${createHash('sha1').update(entry.main).digest('base64url').slice(0, 20)}"`
          : undefined,
        lastModified: host.validators ? roundDate(entry.edition).toUTCString() : undefined,
      };
      if (!host.noise) entry.whole = rendered;
      return rendered;
    },
  };
}
