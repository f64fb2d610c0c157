/** "news.example.org" matches that host; "*.example.org" matches example.org and every host under it. Ports are ignored. */
export function hostMatches(pattern: string, host: string): boolean {
  const hostname = host.replace(/:\d+$/, '').toLowerCase();
  const wanted = pattern.trim().toLowerCase().replace(/:\d+$/, '');
  if (!wanted.startsWith('*.')) return hostname === wanted;
  const domain = wanted.slice(2);
  return hostname === domain || hostname.endsWith(`.${domain}`);
}
