import { escapeHtml } from '../render/escape-html.js';
import { lastChangedRound } from '../model/content-editions.js';
import { changeFrequency, roundDate } from '../model/round-dates.js';
import { findResource, type FileContext, type HostModel, type Resource } from '../model/web-model.js';

const XML_TYPE = 'application/xml; charset=utf-8';

/**
 * A sitemap of the host's reachable pages (taken from the ground truth, so sitemap-following
 * crawlers find nothing the truth does not list), with lastmod and changefreq from the model.
 */
export function createSitemapResource(
  host: HostModel,
  seed: number,
  include: (path: string) => boolean = () => true,
): Resource {
  return {
    kind: 'file',
    contentType: XML_TYPE,
    sitemap: true,
    body(context: FileContext) {
      const entries = context
        .truth()
        .pages.filter((url) => url.startsWith(`${host.origin}/`))
        .map((url) => new URL(url))
        .filter((url) => include(`${url.pathname}${url.search}`))
        .map((url) => {
          const resource = findResource(host, `${url.pathname}${url.search}`);
          const content = resource && 'page' in resource ? resource.page.content : undefined;
          const rate = content?.changeRate ?? 0;
          const edition = content ? lastChangedRound(seed, content.key, rate, context.round) : 0;
          return `<url><loc>${escapeHtml(url.href)}</loc><lastmod>${roundDate(edition).toISOString().slice(0, 10)}</lastmod><changefreq>${changeFrequency(rate)}</changefreq></url>`;
        });
      return Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`,
      );
    },
  };
}

export function createSitemapIndexResource(sitemapUrls: string[]): Resource {
  const body = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemapUrls
      .map((u) => `<sitemap><loc>${escapeHtml(u)}</loc></sitemap>`)
      .join('\n')}\n</sitemapindex>\n`,
  );
  return { kind: 'file', contentType: XML_TYPE, sitemap: true, body: () => body };
}
