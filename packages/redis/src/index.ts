export { redisSettings, loadRedisConfig, type RedisConfig } from './redis-settings.js';
export { createRedisFingerprintStore, type RedisFingerprintStoreOptions } from './redis-fingerprint-store.js';
export type { PipelineEvent } from './pipeline-runner.js';
export { fingerprintKey } from './fingerprint-keys.js';
export { FingerprintArgumentError } from './redis-errors.js';
