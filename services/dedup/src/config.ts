import { loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';

/** Every dedup setting, with its environment variable and default. */
export const dedupSettings = {
  concurrency: setting('DEDUP_CONCURRENCY', z.number().int().min(1).default(32), 'Pages decided at once (store writes overlap).'),
  digestAlgorithm: setting('DEDUP_DIGEST_ALGORITHM', z.enum(['md5', 'sha1', 'sha256']).default('md5'), 'Hash of content digests.'),
  digestTtlMs: setting('DEDUP_DIGEST_TTL_MS', z.number().int().min(1000).default(30 * 24 * 3600 * 1000), 'How long a content digest is remembered; refreshed on every hit.'),
};

export type DedupConfig = ConfigOf<typeof dedupSettings>;

export function loadDedupConfig(options?: LoadOptions): DedupConfig {
  return loadConfig('dedup', dedupSettings, options);
}
