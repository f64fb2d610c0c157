import { hostQueueKey, registrableDomain } from '@crawler/core';

/** What one politeness queue stands for. */
export type QueueMode = 'host' | 'domain' | 'ip';

export type QueueKeyer = (url: URL) => Promise<string>;

/**
 * The politeness key of a URL. host: scheme-less host and port (the frontier's own key);
 * domain: the registrable domain (public suffix list), so a.example.co.uk and b.example.co.uk
 * share one queue; ip: the address the host resolves to, so virtual hosts on one server share
 * one queue. `resolve` must be the connection's own resolver (address policy, DNS cache), so
 * the queue is the server the request really goes to; a refusal there is the URL's outcome.
 */
export function createQueueKeyer(mode: QueueMode, resolve: (url: URL) => Promise<{ address: string }>): QueueKeyer {
  if (mode === 'domain') return async (url) => `domain:${registrableDomain(url)}`;
  if (mode === 'ip') return async (url) => `ip:${(await resolve(url)).address}`;
  return async (url) => hostQueueKey(url);
}
