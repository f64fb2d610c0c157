import { BackendError, CrawlerError, errorMessage, MessageTooLargeError, ErrorCode } from '@crawler/core';

/** Broker error types that name a record too large for the topic or the broker. */
const TOO_LARGE = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE']);
const UNKNOWN_TOPIC = new Set(['UNKNOWN_TOPIC_OR_PARTITION']);

/**
 * Turns what kafkajs throws into the crawler's named errors: a record too large and an unknown
 * topic are final (retrying cannot help); anything else is a retriable BackendError with the cause.
 */
export function toBusError(
  error: unknown,
  action: string,
  scrub: (text: string) => string = (text) => text,
): CrawlerError {
  if (error instanceof CrawlerError) return error;
  const types = errorTypes(error);
  const detail = scrub(errorMessage(rootCause(error)));
  if (types.some((type) => TOO_LARGE.has(type))) {
    return new MessageTooLargeError(
      `${action}: the broker refused the record as too large for the topic's max.message.bytes (${detail})`,
    );
  }
  if (types.some((type) => UNKNOWN_TOPIC.has(type))) {
    return new CrawlerError(
      ErrorCode.BUS_UNKNOWN_TOPIC,
      `${action}: ${detail}; topics are created from schemas/catalog.json at start`,
      { cause: error },
    );
  }
  return new BackendError(`${action} failed: ${detail}`, { cause: error });
}

/** The `type` of the error and of every error it wraps (kafkajs nests causes in retries). */
function errorTypes(error: unknown, depth = 0): string[] {
  if (!error || typeof error !== 'object' || depth > 5) return [];
  const own = 'type' in error && typeof error.type === 'string' ? [error.type] : [];
  const nested = [
    ...('cause' in error ? [error.cause] : []),
    ...('errors' in error && Array.isArray(error.errors) ? error.errors : []),
  ];
  return [...own, ...nested.flatMap((inner) => errorTypes(inner, depth + 1))];
}

function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause instanceof Error; depth++)
    current = current.cause;
  return current;
}
