/**
 * SURT (Sort-friendly URI Reordering Transform) key: host labels reversed so one site's pages sort
 * together, e.g. http://www.example.com:8080/a?b=1 -> com,example,www:8080)/a?b=1. The scheme is
 * left out, as in CDX indexes; IP addresses are not reversed.
 */
export function surtKey(canonical: string | URL): string {
  const url = typeof canonical === 'string' ? new URL(canonical) : canonical;
  const hostname = url.hostname;
  const isIp = /^\d+\.\d+\.\d+\.\d+$/.test(hostname) || hostname.startsWith('[');
  const host = isIp ? hostname : hostname.split('.').reverse().join(',');
  const port = url.port ? `:${url.port}` : '';
  return `${host}${port})${url.pathname}${url.search}`;
}
