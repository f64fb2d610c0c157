import { ErrorCode } from '../error-codes.js';
import type avro from 'avsc';
import { CodecError } from '../errors.js';
import { fingerprintBytes } from './rabin-fingerprint.js';
import { SchemaRegistry, type SchemaVersion } from './schema-registry.js';

/** Avro single-object encoding marker (spec: "C3 01"), followed by the 8-byte schema fingerprint. */
const MARKER_0 = 0xc3;
const MARKER_1 = 0x01;
const HEADER_BYTES = 10;
/** Schema-registry wire format: magic byte 0 and a 4-byte big-endian schema id (packages/kafka/src/registry-framing.ts). */
const REGISTRY_MAGIC = 0;
const REGISTRY_HEADER_BYTES = 5;

/**
 * Writes and reads Avro single-object encoded messages. Readers resolve any known writer version to
 * the current schema, so old messages stay readable after a compatible schema change.
 */
export class Codec {
  private readonly headers = new Map<string, Buffer>();
  private readonly resolvers = new Map<bigint, { reader: SchemaVersion; resolver: avro.Resolver }>();
  private readonly scratch = Buffer.allocUnsafe(64 * 1024);

  constructor(readonly registry: SchemaRegistry = SchemaRegistry.load()) {
    for (const name of registry.currentNames()) {
      const version = registry.current(name);
      this.headers.set(name, Buffer.concat([Buffer.from([MARKER_0, MARKER_1]), fingerprintBytes(version.fingerprint)]));
    }
  }

  encode<T>(name: string, value: T): Buffer {
    const schema = this.registry.current(name);
    const header = this.headers.get(name)!;
    try {
      // avsc's toBuffer writes into 1 KiB and encodes a larger value twice; ours writes header and body in one pass.
      const end = schema.type.encode(value, this.scratch, HEADER_BYTES);
      if (end >= 0) {
        const bytes = Buffer.allocUnsafe(end);
        header.copy(bytes, 0);
        this.scratch.copy(bytes, HEADER_BYTES, HEADER_BYTES, end);
        return bytes;
      }
      // Larger than the scratch: `end` is the bytes missing, so a second pass fits exactly.
      const bytes = Buffer.allocUnsafe(this.scratch.length - end);
      header.copy(bytes, 0);
      schema.type.encode(value, bytes, HEADER_BYTES);
      return bytes;
    } catch (cause) {
      throw new CodecError(ErrorCode.CODEC_INVALID_VALUE, `${name}: ${describeInvalid(schema.type, value)}`, { cause });
    }
  }

  /** Decodes to the current version of the writer's schema; `expected` guards against the wrong topic. */
  decode<T>(bytes: Buffer, expected?: string): T {
    return this.decodeWithSchema<T>(bytes, expected).value;
  }

  decodeWithSchema<T>(bytes: Buffer, expected?: string): { value: T; writer: SchemaVersion; reader: SchemaVersion } {
    const writer = this.identify(bytes);
    if (expected !== undefined && writer.name !== expected) {
      throw new CodecError(
        ErrorCode.CODEC_WRONG_SCHEMA,
        `expected a ${expected} but the payload is a ${writer.name} v${writer.version}`,
      );
    }
    const { reader, resolver } = this.resolverFor(writer);
    try {
      const value = reader.type.fromBuffer(bytes.subarray(HEADER_BYTES), resolver, false) as T;
      return { value, writer, reader };
    } catch (cause) {
      throw new CodecError(
        ErrorCode.CODEC_CORRUPT,
        `corrupt ${writer.name} v${writer.version} payload (${bytes.length} bytes): ${(cause as Error).message}`,
        { cause },
      );
    }
  }

  /** Reads only the header: which schema version wrote these bytes. */
  identify(bytes: Buffer): SchemaVersion {
    if (bytes.length >= REGISTRY_HEADER_BYTES && bytes[0] === REGISTRY_MAGIC) {
      // The bus hands over registry-framed bytes as single-object ones; these it could not map.
      throw new CodecError(
        ErrorCode.CODEC_UNKNOWN_SCHEMA,
        `schema-registry framing with schema id ${bytes.readInt32BE(1)} that no schema in schemas/ matches; is SCHEMA_REGISTRY_URL set, and schemas/ as new as the producer?`,
      );
    }
    if (bytes.length < HEADER_BYTES || bytes[0] !== MARKER_0 || bytes[1] !== MARKER_1) {
      throw new CodecError(
        ErrorCode.CODEC_BAD_HEADER,
        `not an Avro single-object message: ${bytes.length} bytes starting ${bytes.subarray(0, 4).toString('hex') || '(empty)'}`,
      );
    }
    const fingerprint = bytes.readBigUInt64LE(2);
    const writer = this.registry.find(fingerprint);
    if (!writer) {
      throw new CodecError(
        ErrorCode.CODEC_UNKNOWN_SCHEMA,
        `unknown schema fingerprint ${fingerprint.toString(16).padStart(16, '0')}; is schemas/ older than the producer?`,
      );
    }
    return writer;
  }

  private resolverFor(writer: SchemaVersion): { reader: SchemaVersion; resolver: avro.Resolver } {
    let cached = this.resolvers.get(writer.fingerprint);
    if (!cached) {
      const reader = this.registry.current(writer.name);
      cached = { reader, resolver: reader.type.createResolver(writer.type) };
      this.resolvers.set(writer.fingerprint, cached);
    }
    return cached;
  }
}

function describeInvalid(type: avro.Type, value: unknown): string {
  const problems: string[] = [];
  type.isValid(value, {
    errorHook: (path: string[], got: unknown, expectedType: avro.Type) => {
      if (problems.length < 3)
        problems.push(
          `${path.join('.') || '(root)'}: got ${JSON.stringify(got)?.slice(0, 60)}, expected ${String(expectedType.typeName ?? expectedType)}`,
        );
    },
  });
  return problems.length > 0 ? `invalid value at ${problems.join('; ')}` : 'value does not match the schema';
}
