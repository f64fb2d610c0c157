import type { RobotsRule, RobotsTxt } from './robots-txt.js';

/** The rules of one robots.txt as they apply to one user agent. */
export interface RobotsPolicy {
  isAllowed(pathAndQuery: string): boolean;
  crawlDelay: number | undefined;
}

/**
 * Selects the groups naming the user agent (case-insensitive substring, so "MyCrawler/1.0" obeys a
 * "crawler" group), else the "*" groups. A missing robots.txt allows everything.
 */
export function createRobotsPolicy(robots: RobotsTxt | undefined, userAgent: string): RobotsPolicy {
  if (!robots) return { isAllowed: () => true, crawlDelay: undefined };
  const agent = userAgent.toLowerCase();
  const named = robots.groups.filter((g) => g.userAgents.some((ua) => ua !== '*' && agent.includes(ua)));
  const groups = named.length > 0 ? named : robots.groups.filter((g) => g.userAgents.includes('*'));
  const matchers = groups.flatMap((g) => g.rules).map(compileRule);
  const crawlDelay = groups.find((g) => g.crawlDelay !== undefined)?.crawlDelay;
  return {
    crawlDelay,
    isAllowed(pathAndQuery) {
      // RFC 9309: the longest matching pattern wins; on a tie, allow wins.
      let best: { allow: boolean; length: number } | undefined;
      for (const m of matchers) {
        if (!m.regex.test(pathAndQuery)) continue;
        if (!best || m.length > best.length || (m.length === best.length && m.allow)) {
          best = { allow: m.allow, length: m.length };
        }
      }
      return best?.allow ?? true;
    },
  };
}

function compileRule(rule: RobotsRule): { allow: boolean; length: number; regex: RegExp } {
  const anchored = rule.pattern.endsWith('$');
  const body = anchored ? rule.pattern.slice(0, -1) : rule.pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return { allow: rule.allow, length: rule.pattern.length, regex: new RegExp(`^${source}${anchored ? '$' : ''}`) };
}
