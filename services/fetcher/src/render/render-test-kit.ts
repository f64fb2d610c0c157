import { hostQueueKey, silentLogger, urlId, type FingerprintStore, type FrontierRequest } from '@crawler/core';
import { loadFetcherConfig, type FetcherConfig, OWN_SITE_BUDGET } from '../config.js';
import { createFetcherParts, type FetcherParts } from '../fetcher-service.js';
import { createFetcherStage } from '../fetcher-stage.js';
import type { Resolver } from '../address-policy.js';
import { createRenderer } from './create-renderer.js';
import type { Renderer } from './renderer.js';

/** Test settings: our loopback site admitted, no politeness pauses worth waiting for, short render limits. */
export const RENDER_TEST_SETTINGS = {
  allowAddresses: ['127.0.0.1'],
  minDelayMs: 0,
  ...OWN_SITE_BUDGET,
  delayFactor: 0,
  perHostConcurrency: 4,
  render: true,
  renderIdleMs: 300,
  renderTimeoutMs: 15_000,
};

/** A frontier message for a URL, as the scheduler would send it. */
export function frontierRequest(url: string, fields: Partial<FrontierRequest> = {}): FrontierRequest {
  const parsed = new URL(url);
  return {
    url,
    urlId: urlId(url),
    host: parsed.host,
    queueKey: hostQueueKey(parsed),
    depth: 1,
    jobId: 'job',
    traceId: 'trace',
    attempt: 1,
    scheduledAt: 0,
    leaseUntil: 0,
    trafficClass: 'discovery',
    etag: null,
    lastModified: null,
    previousDigest: null,
    meta: {},
    ...fields,
  };
}

export interface RenderRig {
  config: FetcherConfig;
  parts: FetcherParts;
  renderer: Renderer;
  stage: ReturnType<typeof createFetcherStage>;
  close(): Promise<void>;
}

/** A fetcher stage with rendering on, built the way the service builds it. */
export function createRenderRig(
  overrides: Record<string, unknown>,
  store: FingerprintStore | null,
  options: { resolver?: Resolver } = {},
): RenderRig {
  const config = loadFetcherConfig({ env: {}, overrides: { ...RENDER_TEST_SETTINGS, ...overrides } });
  const parts = createFetcherParts(config, store, silentLogger(), options);
  const renderer = createRenderer(config, parts, store, silentLogger())!;
  const stage = createFetcherStage({ deps: parts.deps, bodyCompression: 'identity', metrics: parts.metrics, renderer });
  return {
    config,
    parts,
    renderer,
    stage,
    async close() {
      await renderer.close();
      parts.gate.close();
      await parts.client.close();
    },
  };
}
