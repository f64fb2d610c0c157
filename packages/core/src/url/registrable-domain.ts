import { getDomain } from 'tldts';

/**
 * The registrable domain (public suffix + one label, "eTLD+1") of a host, from the Public Suffix
 * List including its private section, so `a.github.io` and `b.github.io` are different owners.
 * IP literals, single-label hosts and bare suffixes have no registrable domain: the hostname itself
 * stands in, so every host still maps to exactly one domain (scope and politeness keys need one).
 */
export function registrableDomain(host: string | URL): string {
  const hostname = (typeof host === 'string' ? host : host.hostname).toLowerCase().replace(/\.$/, '');
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return getDomain(bare, { allowPrivateDomains: true }) ?? bare;
}
