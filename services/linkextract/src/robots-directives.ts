export interface RobotsDirectives {
  noindex: boolean;
  nofollow: boolean;
}

/** Directives that carry a value after a colon; anything else before a colon names a user agent. */
const VALUED = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

/**
 * Reads meta robots content and X-Robots-Tag values. `none` means noindex and nofollow. In the
 * header, `agent: directive` scopes what follows to that agent until the next agent; only
 * unscoped directives and those for `agent` (the crawler's product token, if given) apply.
 */
export function parseRobotsDirectives(values: readonly string[], agent: string | null = null): RobotsDirectives {
  const result: RobotsDirectives = { noindex: false, nofollow: false };
  const ours = agent?.toLowerCase() ?? null;
  for (const value of values) {
    let scope: string | null = null;
    for (const rawToken of value.toLowerCase().split(',')) {
      let token = rawToken.trim();
      const colon = token.indexOf(':');
      if (colon > 0) {
        const head = token.slice(0, colon).trim();
        if (!VALUED.has(head)) {
          scope = head;
          token = token.slice(colon + 1).trim();
        }
      }
      if (scope !== null && scope !== ours && scope !== '*') continue;
      if (token === 'noindex' || token === 'none') result.noindex = true;
      if (token === 'nofollow' || token === 'none') result.nofollow = true;
    }
  }
  return result;
}
