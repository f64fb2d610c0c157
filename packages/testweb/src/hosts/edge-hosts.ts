import type { HostModel } from '../model/web-model.js';
import { buildEdgeHttpHost } from './edge-http-host.js';
import { buildEdgeRobotsHosts } from './edge-robots-hosts.js';

/** The hosts of the 'edge' profile, in listening order. */
export const EDGE_HOST_NAMES = [
  'robots-odd',
  'robots-error',
  'robots-redirect',
  'robots-loop',
  'robots-denied',
  'http',
] as const;
export type EdgeHostName = (typeof EDGE_HOST_NAMES)[number];

/**
 * The edge profile: HTTP and robots.txt edge cases for fetcher tests, requested by path, never
 * crawled from seeds (it has none), so its ground truth lists no pages.
 */
export function buildEdgeHosts(origins: Record<EdgeHostName, string>): HostModel[] {
  return [...buildEdgeRobotsHosts(origins), buildEdgeHttpHost(origins.http, origins['robots-denied'])];
}
