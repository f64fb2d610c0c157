/**
 * What the guarded host's log classifier looks at, and where it draws the line. The defaults
 * follow how sites detect crawlers from their access logs: visitors grouped by /24 network,
 * requests counted in a sliding 10-minute window, and a network judged a crawler by the pages it
 * views per minute, its mean dwell time between page views, the pages it views in all, and
 * whether it fetches the pages' attachments (stylesheets, scripts, images) as a browser does.
 */
export interface DetectionThresholds {
  /** The sliding window requests are counted in. */
  windowMs: number;
  /** More page views than this from one /24 in the window: a crawler ("volume"). */
  maxPages: number;
  /** More page views than this from one /24 within any 60 seconds: a crawler ("speed"). */
  maxPagesPerMinute: number;
  /**
   * A mean time between page views under this, over at least `minPagesForDwell` views in the
   * window, from a /24 that fetched no attachment in the window: a crawler ("dwell").
   */
  minMeanDwellMs: number;
  minPagesForDwell: number;
}

export const DEFAULT_DETECTION: DetectionThresholds = {
  windowMs: 600_000,
  maxPages: 200,
  maxPagesPerMinute: 60,
  minMeanDwellMs: 1000,
  minPagesForDwell: 10,
};

export type RequestKind = 'page' | 'attachment' | 'other';

/** Why a network was judged a crawler, and what its window showed then. */
export interface DetectionVerdict {
  network: string;
  rule: 'volume' | 'speed' | 'dwell';
  at: number;
  pages: number;
  pagesLastMinute: number;
  meanDwellMs: number | null;
  attachments: number;
}

/** One network's window: the times of its page views and attachment requests. */
interface Visitor {
  pages: number[];
  attachments: number[];
}

const MINUTE = 60_000;

/**
 * Groups requests by the client's /24 (an IPv6 client by its /48), keeps each network's page
 * views and attachment requests of the sliding window, and judges after every request. A network
 * judged a crawler is blacklisted for good. Times come from the caller, so a test clock can drive it.
 */
export class CrawlerClassifier {
  private readonly visitors = new Map<string, Visitor>();
  private readonly blacklist = new Map<string, DetectionVerdict>();

  constructor(readonly thresholds: DetectionThresholds = DEFAULT_DETECTION) {}

  /** Records one request; returns the verdict if this request got its network blacklisted. */
  observe(remote: string, kind: RequestKind, now: number): DetectionVerdict | null {
    const network = networkOf(remote);
    if (this.blacklist.has(network) || kind === 'other') return null;
    let visitor = this.visitors.get(network);
    if (!visitor) {
      visitor = { pages: [], attachments: [] };
      this.visitors.set(network, visitor);
    }
    (kind === 'page' ? visitor.pages : visitor.attachments).push(now);
    const since = now - this.thresholds.windowMs;
    while (visitor.pages.length > 0 && visitor.pages[0]! <= since) visitor.pages.shift();
    while (visitor.attachments.length > 0 && visitor.attachments[0]! <= since) visitor.attachments.shift();
    const verdict = this.judge(network, visitor, now);
    if (verdict) this.blacklist.set(network, verdict);
    return verdict;
  }

  isBlacklisted(remote: string): boolean {
    return this.blacklist.has(networkOf(remote));
  }

  verdicts(): DetectionVerdict[] {
    return [...this.blacklist.values()];
  }

  private judge(network: string, visitor: Visitor, now: number): DetectionVerdict | null {
    const { pages, attachments } = visitor;
    const pagesLastMinute = pages.filter((at) => at > now - MINUTE).length;
    const meanDwellMs = pages.length >= 2 ? (pages.at(-1)! - pages[0]!) / (pages.length - 1) : null;
    const seen = {
      network,
      at: now,
      pages: pages.length,
      pagesLastMinute,
      meanDwellMs,
      attachments: attachments.length,
    };
    const { thresholds } = this;
    if (pages.length > thresholds.maxPages) return { ...seen, rule: 'volume' };
    if (pagesLastMinute > thresholds.maxPagesPerMinute) return { ...seen, rule: 'speed' };
    if (
      attachments.length === 0 &&
      pages.length >= thresholds.minPagesForDwell &&
      meanDwellMs !== null &&
      meanDwellMs < thresholds.minMeanDwellMs
    )
      return { ...seen, rule: 'dwell' };
    return null;
  }
}

/**
 * The /24 of an IPv4 client (an IPv4-mapped IPv6 address counts as IPv4), the /48 of an IPv6 one.
 * The crawler counts its footprint the same way, in its own code: the test web shares none with
 * the crawler it judges.
 */
export function networkOf(remote: string): string {
  const v4 = /(\d+\.\d+\.\d+)\.\d+$/.exec(remote);
  if (v4) return `${v4[1]}.0/24`;
  const groups = (remote.split('::')[0] ?? '').split(':').filter(Boolean);
  while (groups.length < 3) groups.push('0');
  return `${groups.slice(0, 3).join(':')}::/48`;
}
