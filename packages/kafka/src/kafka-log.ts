import type { Logger } from '@crawler/core';
import { logLevel, type logCreator } from 'kafkajs';
import type { KafkaConfig } from './kafka-settings.js';

const LEVELS = { error: logLevel.ERROR, warn: logLevel.WARN, info: logLevel.INFO, debug: logLevel.DEBUG } as const;

/** Field names kafkajs or a broker error might fill with credentials; dropped, whatever their value. */
const SECRET_KEY = /sasl|password|secret|credential|token/i;
/** Fields kafkajs adds to every line that pino already has. */
const NOISE = new Set(['timestamp', 'logger', 'message']);

export function kafkaLogLevel(config: KafkaConfig): logLevel {
  return LEVELS[config.logLevel];
}

/**
 * Routes kafkajs' log lines into the service logger as structured fields under the kafkajs
 * namespace. Lines are scrubbed here, not by the logger's redact paths, because the logger is the
 * caller's and kafkajs nests fields arbitrarily deep.
 */
export function createKafkaLogCreator(logger: Logger, secrets: readonly string[]): logCreator {
  const scrub = createScrubber(secrets);
  const log = logger.child({ component: 'kafkajs' });
  return () =>
    ({ namespace, level, log: entry }) => {
      const fields = scrub(Object.fromEntries(Object.entries(entry).filter(([key]) => !NOISE.has(key)))) as Record<
        string,
        unknown
      >;
      const message = scrub(entry.message) as string;
      const at = { namespace, ...fields };
      // A broker's error answer is handled by the caller (retried, rejoined, or thrown and reported);
      // kafkajs' own error line for it would cry wolf on every rebalance.
      if (namespace === 'Connection' && message.startsWith('Response ')) log.debug(at, message);
      else if (level === logLevel.ERROR) log.error(at, message);
      else if (level === logLevel.WARN) log.warn(at, message);
      else if (level === logLevel.INFO) log.info(at, message);
      else log.debug(at, message);
    };
}

/** Removes secret-named fields and every occurrence of a secret value from strings, at any depth. */
export function createScrubber(secrets: readonly string[]): (value: unknown) => unknown {
  const values = secrets.filter((secret) => secret.length > 0);
  const scrubText = (text: string) => values.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return scrubText(value);
    if (value instanceof Error)
      return walk({ name: value.name, message: value.message, type: (value as { type?: unknown }).type }, depth);
    if (depth > 5 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (!SECRET_KEY.test(key)) out[key] = walk(item, depth + 1);
    }
    return out;
  };
  return (value) => walk(value, 0);
}
