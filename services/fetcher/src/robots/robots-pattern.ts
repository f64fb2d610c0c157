/**
 * Matches a robots.txt path pattern (RFC 9309 2.2.3): `*` matches any run of characters, a final
 * `$` anchors the end, anything else matches a prefix. Greedy with one backtrack point, so a
 * hostile pattern like `/*a*a*a*a*b` costs O(path × pattern), never the exponential time a
 * backtracking RegExp can take.
 */
export function matchesRobotsPattern(path: string, pattern: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  let p = 0;
  let s = 0;
  let star = -1;
  let resume = 0;
  while (s < path.length) {
    if (p < body.length && body[p] !== '*' && body[p] === path[s]) {
      p++;
      s++;
    } else if (p < body.length && body[p] === '*') {
      star = p++;
      resume = s;
    } else if (p === body.length && !anchored) {
      return true; // an unanchored pattern only needs to match a prefix
    } else if (star >= 0) {
      p = star + 1;
      s = ++resume;
    } else {
      return false;
    }
  }
  while (p < body.length && body[p] === '*') p++;
  return p === body.length;
}
