/**
 * The politeness key of a URL: one fetch queue, and one crawl.frontier partition key, per key.
 * It keeps the port, since two ports of one address are separate servers.
 */
export function hostQueueKey(url: URL): string {
  return url.host;
}
