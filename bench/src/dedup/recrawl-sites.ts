import { canonicalUrl } from '@crawler/core';
import { startNoisyNewsSite, startTestWeb } from '@crawler/testweb';
import type { RecrawlSite } from './recrawl-experiment.js';

const canonical = (url: string) => canonicalUrl(url) ?? url;

/**
 * The noisy news site's own host (its wire service reprints stories: that is the near-duplicate
 * experiment's business). Stories with a print version and their print pages count as copies:
 * whichever is crawled first is the original, and the other follows its decisions.
 */
export async function noisyNewsRecrawlSite(seed = 1): Promise<RecrawlSite & { close(): Promise<void> }> {
  const site = await startNoisyNewsSite({ seed });
  const onLedger = (url: string) => url.startsWith(`${site.origins.ledger}/`);
  return {
    name: 'noisy news site (noise inside the story container)',
    setRound: (round) => site.setRound(round),
    truth: () => {
      const truth = site.truth();
      const pairs = truth.nearDuplicates.filter((pair) => onLedger(pair.a) && onLedger(pair.b));
      return {
        pages: truth.pages.filter(onLedger),
        changed: truth.changed.filter(onLedger),
        copies: pairs.flatMap((pair) => [pair.a, pair.b]),
      };
    },
    close: () => site.close(),
  };
}

/** The test web's news host (noise outside <main>); its print and tracking variants and their articles are copies. */
export async function testWebNewsRecrawlSite(seed = 1): Promise<RecrawlSite & { close(): Promise<void> }> {
  const web = await startTestWeb({ seed });
  const news = web.hosts.find((host) => host.name === 'news')!.origin;
  return {
    name: 'test web news host (noise outside <main>)',
    setRound: (round) => web.setRound(round),
    truth: () => {
      const truth = web.groundTruth();
      const onNews = (url: string) => url.startsWith(`${news}/`);
      const groups = [...truth.contentDuplicates, ...truth.nearDuplicates.map((pair) => [pair.a, pair.b])].filter(
        (group) => group.every(onNews),
      );
      const copies = groups.flat().map(canonical);
      const pages = [...new Set(truth.pages.filter(onNews).map(canonical))];
      return { pages, changed: truth.changed.filter(onNews).map(canonical), copies };
    },
    close: () => web.close(),
  };
}
