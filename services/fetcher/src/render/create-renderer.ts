import type { FingerprintStore, Logger } from '@crawler/core';
import type { FetcherConfig } from '../config.js';
import type { HttpClient } from '../http-client.js';
import type { PoliteRequests } from '../politeness/polite-request.js';
import { BrowserPool } from './browser-pool.js';
import { loadRenderJob } from './render-job.js';
import { RenderMetrics } from './render-metrics.js';
import { loadRenderRulesFile, RenderRules, type RenderRule } from './render-rules.js';
import { Renderer } from './renderer.js';
import { SiteLearning } from './site-learning.js';
import { SubresourceCache } from './subresource-cache.js';

/** What a plain fetch uses, and rendering shares: one client and one polite path (address policy, robots.txt, queues) for both. */
export interface RenderSharedParts {
  client: HttpClient;
  polite: PoliteRequests;
}

/**
 * The fetcher's renderer, or null when neither FETCHER_RENDER nor the crawl job's
 * rendering.enabled turns rendering on: then nothing about fetching changes. Learning needs the
 * shared store; without one (the check command) every routed page is rendered.
 */
export function createRenderer(
  config: FetcherConfig,
  parts: RenderSharedParts,
  state: FingerprintStore | null,
  logger: Logger,
  options: { rules?: RenderRule[] } = {},
): Renderer | null {
  const job = loadRenderJob(config.jobFile);
  if (!config.render && !job.enabled) return null;
  // The caller's rules (the render command's --force) come before the job's and the file's.
  const rules = new RenderRules([
    ...(options.rules ?? []),
    ...job.rules,
    ...(config.renderRulesFile ? loadRenderRulesFile(config.renderRulesFile) : []),
  ]);
  const log = logger.child({ component: 'renderer' });
  return new Renderer({
    network: {
      ...parts,
      cache: new SubresourceCache(config.renderCacheBytes),
      blockTypes: new Set(config.renderBlockTypes),
      maxRequests: config.renderMaxRequests,
      maxBodyBytes: config.maxBodyBytes,
      requestTimeoutMs: Math.min(config.totalTimeoutMs, config.renderTimeoutMs),
    },
    pool: new BrowserPool({
      executablePath: config.renderChromium,
      userAgent: config.userAgent,
      pages: config.renderPages,
      waitingMax: config.renderWaitingMax,
      memoryCapBytes: config.renderMemoryMb * 1024 * 1024,
      logger: log,
    }),
    router: {
      rules,
      detectShells: config.renderDetectShells,
      learning:
        state && config.renderLearnSamples > 0
          ? new SiteLearning(state, { samples: config.renderLearnSamples, ttlMs: config.renderDecisionTtlMs })
          : null,
    },
    timeoutMs: config.renderTimeoutMs,
    idleMs: config.renderIdleMs,
    maxBodyBytes: config.maxBodyBytes,
    metrics: new RenderMetrics(),
    logger: log,
  });
}
