/** A parsed robots.txt (RFC 9309 plus the common Crawl-delay and Sitemap extensions). */
export interface RobotsTxt {
  groups: RobotsGroup[];
  sitemaps: string[];
}

export interface RobotsGroup {
  userAgents: string[];
  rules: RobotsRule[];
  crawlDelay?: number;
}

export interface RobotsRule {
  allow: boolean;
  pattern: string;
}

export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let current: RobotsGroup | undefined;
  let collectingAgents = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      // Consecutive user-agent lines share one group; one after rules starts the next group.
      if (!current || !collectingAgents) {
        current = { userAgents: [], rules: [] };
        groups.push(current);
      }
      current.userAgents.push(value.toLowerCase());
      collectingAgents = true;
    } else if (field === 'sitemap') {
      sitemaps.push(value);
    } else if (current) {
      collectingAgents = false;
      if ((field === 'allow' || field === 'disallow') && value !== '') {
        current.rules.push({ allow: field === 'allow', pattern: value });
      } else if (field === 'crawl-delay') {
        const seconds = Number(value);
        if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelay = seconds;
      }
    }
  }
  return { groups, sitemaps };
}
