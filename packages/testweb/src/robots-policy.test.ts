import { describe, expect, it } from 'vitest';
import { createRobotsPolicy } from './robots-policy.js';
import { parseRobotsTxt } from './robots-txt.js';

const TEXT = `# comment
User-agent: *
Disallow: /private/
Allow: /private/press-kit
Disallow: /*?sort=
Disallow: /*.php$
Crawl-delay: 0.5

User-agent: archive-bot
User-agent: other-bot
Disallow: /

Sitemap: http://127.0.0.1:1/sitemap.xml
`;

describe('robots policy', () => {
  const robots = parseRobotsTxt(TEXT);

  it('groups consecutive user-agent lines and collects sitemaps', () => {
    expect(robots.groups.map((g) => g.userAgents)).toEqual([['*'], ['archive-bot', 'other-bot']]);
    expect(robots.sitemaps).toEqual(['http://127.0.0.1:1/sitemap.xml']);
  });

  it('applies the longest match, with allow winning inside a disallowed folder', () => {
    const policy = createRobotsPolicy(robots, 'MyCrawler/1.0');
    expect(policy.isAllowed('/private/drafts')).toBe(false);
    expect(policy.isAllowed('/private/press-kit')).toBe(true);
    expect(policy.isAllowed('/public')).toBe(true);
    expect(policy.crawlDelay).toBe(0.5);
  });

  it('understands * wildcards and the $ end anchor', () => {
    const policy = createRobotsPolicy(robots, 'crawler');
    expect(policy.isAllowed('/section/world?sort=date')).toBe(false);
    expect(policy.isAllowed('/section/world?page=2')).toBe(true);
    expect(policy.isAllowed('/order-form.php')).toBe(false);
    expect(policy.isAllowed('/order-form.php5')).toBe(true);
  });

  it('uses a group naming the agent instead of the * group', () => {
    expect(createRobotsPolicy(robots, 'Archive-Bot/2').isAllowed('/anything')).toBe(false);
    expect(createRobotsPolicy(robots, 'Archive-Bot/2').crawlDelay).toBeUndefined();
  });

  it('allows everything without a robots.txt', () => {
    expect(createRobotsPolicy(undefined, 'crawler').isAllowed('/private/')).toBe(true);
  });
});
