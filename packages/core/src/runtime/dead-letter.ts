import { topicSpec, Topics } from '../catalog.js';
import type { Codec } from '../codec/codec.js';
import { errorCode, errorMessage } from '../errors.js';
import { Schemas, type DeadLetter } from '../messages.js';
import type { IncomingMessage } from '../ports/bus.js';

/** Characters of the error message kept in a dead letter's reason. */
const REASON_CHARS = 1000;

export interface DeadLetterOrigin {
  service: string;
  consumerGroup: string;
  attempts: number;
  failedAt: number;
}

/**
 * Encodes the dead letter of a message: its key, headers and original bytes with the error's code
 * and reason. A value too large for crawl.dlq keeps its first bytes only; `valueTruncatedFrom` and
 * the reason say so, and `crawler dlq replay` skips it, since a cut record can never be processed.
 */
export function encodeDeadLetter(
  codec: Codec,
  message: IncomingMessage,
  error: unknown,
  origin: DeadLetterOrigin,
  limit = topicSpec(Topics.dlq).maxMessageBytes,
): Buffer {
  const record: DeadLetter = {
    topic: message.topic,
    partition: message.partition,
    offset: message.offset,
    key: message.key,
    value: message.value,
    valueTruncatedFrom: null,
    headers: message.headers,
    service: origin.service,
    consumerGroup: origin.consumerGroup,
    errorCode: errorCode(error),
    reason: errorMessage(error).slice(0, REASON_CHARS),
    attempts: origin.attempts,
    failedAt: origin.failedAt,
  };
  const whole = codec.encode(Schemas.DeadLetter, record);
  if (whole.length <= limit) return whole;
  const original = message.value.length;
  // The reason grows by the note and the length prefix may shrink: shave a little more each round.
  for (let spare = 128; ; spare *= 2) {
    const kept = Math.max(0, original - (whole.length - limit) - spare);
    const cut = codec.encode(Schemas.DeadLetter, {
      ...record,
      value: message.value.subarray(0, kept),
      valueTruncatedFrom: original,
      reason: `${record.reason} [value cut to its first ${kept} of ${original} bytes to fit ${Topics.dlq}]`,
    });
    if (cut.length <= limit || kept === 0) return cut;
  }
}
