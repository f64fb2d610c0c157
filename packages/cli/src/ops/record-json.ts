import { errorCode, errorMessage, type Codec, type IncomingMessage } from '@crawler/core';

/** A record as one JSON line: where it sits, its key and headers, its schema and decoded value. */
export interface TappedRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: string;
  key: string | null;
  headers: Record<string, string>;
  schema?: string;
  value?: unknown;
  /** Undecodable bytes: why, and the bytes themselves (bounded) as base64. */
  error?: { code: string; message: string };
  raw?: string;
  /** Fields cut to the limit, with their full length (bytes for bytes fields, characters for strings). */
  truncated?: Record<string, number>;
}

/**
 * Decodes a message with the schemas of schemas/. Bytes fields become base64; bytes fields and
 * strings longer than `fieldLimit` are cut (a page body or text would flood a terminal) and listed.
 */
export function toTappedRecord(message: IncomingMessage, codec: Codec, fieldLimit: number): TappedRecord {
  const record: TappedRecord = {
    topic: message.topic,
    partition: message.partition,
    offset: message.offset,
    timestamp: new Date(message.timestamp).toISOString(),
    key: message.key?.toString('utf8') ?? null,
    headers: message.headers,
  };
  const truncated: Record<string, number> = {};
  try {
    const { value, writer } = codec.decodeWithSchema(message.value);
    record.schema = writer.name;
    record.value = plain(value, 'value', fieldLimit, truncated);
  } catch (error) {
    record.error = { code: errorCode(error), message: errorMessage(error) };
    record.raw = plain(message.value, 'raw', fieldLimit, truncated) as string;
  }
  if (Object.keys(truncated).length > 0) record.truncated = truncated;
  return record;
}

function plain(value: unknown, path: string, limit: number, truncated: Record<string, number>): unknown {
  if (Buffer.isBuffer(value)) {
    if (value.length > limit) truncated[path] = value.length;
    return value.subarray(0, limit).toString('base64');
  }
  if (typeof value === 'string') {
    if (value.length <= limit) return value;
    truncated[path] = value.length;
    return value.slice(0, limit);
  }
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map((item, index) => plain(item, `${path}[${index}]`, limit, truncated));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, plain(item, `${path}.${key}`, limit, truncated)]),
    );
  }
  return value;
}
