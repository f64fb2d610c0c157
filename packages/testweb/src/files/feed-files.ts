import { lastChangedRound } from '../model/content-editions.js';
import { roundDate } from '../model/round-dates.js';
import type { Content, Resource } from '../model/web-model.js';
import { escapeHtml } from '../render/escape-html.js';

export interface FeedItem {
  title: string;
  url: string;
  content: Content;
}

/** An RSS 2.0 feed whose item dates follow the items' last content change. */
export function createRssResource(seed: number, title: string, siteUrl: string, items: FeedItem[]): Resource {
  return {
    kind: 'file',
    contentType: 'application/rss+xml; charset=utf-8',
    body: ({ round }) => {
      const entries = items.map((item) => {
        const date = roundDate(lastChangedRound(seed, item.content.key, item.content.changeRate, round));
        return `<item><title>${escapeHtml(item.title)}</title><link>${escapeHtml(item.url)}</link><guid>${escapeHtml(item.url)}</guid><pubDate>${date.toUTCString()}</pubDate></item>`;
      });
      return Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>${escapeHtml(title)}</title><link>${escapeHtml(siteUrl)}</link><description>Latest stories</description>\n${entries.join('\n')}\n</channel></rss>\n`,
      );
    },
  };
}

/** An Atom 1.0 feed, same dating rule as the RSS one. */
export function createAtomResource(seed: number, title: string, feedUrl: string, items: FeedItem[]): Resource {
  return {
    kind: 'file',
    contentType: 'application/atom+xml; charset=utf-8',
    body: ({ round }) => {
      const dates = items.map((item) =>
        roundDate(lastChangedRound(seed, item.content.key, item.content.changeRate, round)),
      );
      const updated = new Date(Math.max(...dates.map((d) => d.getTime()))).toISOString();
      const entries = items.map(
        (item, i) =>
          `<entry><title>${escapeHtml(item.title)}</title><link href="${escapeHtml(item.url)}"/><id>${escapeHtml(item.url)}</id><updated>${dates[i]!.toISOString()}</updated></entry>`,
      );
      return Buffer.from(
        `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>${escapeHtml(title)}</title><id>${escapeHtml(feedUrl)}</id><updated>${updated}</updated>\n${entries.join('\n')}\n</feed>\n`,
      );
    },
  };
}
