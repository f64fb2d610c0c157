import { errorMessage, SchemaRegistry, sleep, type Logger, ErrorCode } from '@crawler/core';
import type { KafkaConfig } from './kafka-settings.js';
import {
  createSchemaRegistryClient,
  SchemaRegistryError,
  type SchemaRegistryClient,
} from './schema-registry-client.js';

/** Avro single-object encoding: C3 01, the 8-byte little-endian fingerprint, the body. */
const SINGLE_OBJECT_HEADER = 10;
/** Schema-registry wire format: magic byte 0, the 4-byte big-endian schema id, the body. */
const REGISTRY_HEADER = 5;

/** A topic whose value schema is registered under the subject `<topic>-value` (TopicNameStrategy). */
export interface TopicSchema {
  topic: string;
  /** Avro full name, e.g. crawler.StoredPage. */
  schema: string;
}

/**
 * Translates between the codec's single-object encoding and the schema-registry wire format that
 * Kafka Connect, ksqlDB, Flink and confluent-kafka read. Only the header changes: the Avro body is
 * the same bytes. Producers write registry framing for every schema the registry knows; consumers
 * accept both framings, so a running crawl can switch without losing a message.
 */
export class RegistryFraming {
  private readonly idByFingerprint = new Map<bigint, number>();
  private readonly fingerprintById = new Map<number, Promise<bigint | null>>();
  private readonly lookups = new Map<string, Promise<number | null>>();

  constructor(
    private readonly client: SchemaRegistryClient,
    private readonly logger: Logger,
    private readonly schemas: SchemaRegistry = SchemaRegistry.load(),
  ) {}

  /**
   * Registers every version of each topic's schema, oldest first, under `<topic>-value` with
   * BACKWARD compatibility; the registry refuses a version that cannot read the one before it.
   */
  async register(topics: readonly TopicSchema[]): Promise<void> {
    await Promise.all(topics.map((topic) => this.registerTopic(topic)));
  }

  /** Registry framing for a single-object message whose schema the registry knows; anything else as it is. */
  async toWire(topic: string, value: Buffer): Promise<Buffer> {
    if (value.length < SINGLE_OBJECT_HEADER || value[0] !== 0xc3 || value[1] !== 0x01) return value;
    const fingerprint = value.readBigUInt64LE(2);
    const id = this.idByFingerprint.get(fingerprint) ?? (await this.lookup(topic, fingerprint));
    if (id === null) return value;
    const wire = Buffer.allocUnsafe(value.length - SINGLE_OBJECT_HEADER + REGISTRY_HEADER);
    wire[0] = 0;
    wire.writeInt32BE(id, 1);
    value.copy(wire, REGISTRY_HEADER, SINGLE_OBJECT_HEADER);
    return wire;
  }

  /** Single-object encoding for a registry-framed message of a known schema; anything else as it is, for the codec to judge. */
  async fromWire(value: Buffer): Promise<Buffer> {
    if (value.length < REGISTRY_HEADER || value[0] !== 0) return value;
    const fingerprint = await this.fingerprintOf(value.readInt32BE(1));
    if (fingerprint === null) return value;
    const single = Buffer.allocUnsafe(value.length - REGISTRY_HEADER + SINGLE_OBJECT_HEADER);
    single[0] = 0xc3;
    single[1] = 0x01;
    single.writeBigUInt64LE(fingerprint, 2);
    value.copy(single, SINGLE_OBJECT_HEADER, REGISTRY_HEADER);
    return single;
  }

  private async registerTopic({ topic, schema }: TopicSchema): Promise<void> {
    const subject = `${topic}-value`;
    const [first, ...later] = this.schemas.versionsOf(schema);
    if (!first) throw new SchemaRegistryError(ErrorCode.SCHEMA_REGISTRY_REFUSED, `${topic}: no schema named ${schema}`);
    this.remember(first.fingerprint, await withRetries(() => this.client.register(subject, first.definition)));
    // A subject exists only once it holds a version: its rule can be set from then on.
    await withRetries(() => this.client.setCompatibility(subject, 'BACKWARD'));
    for (const version of later) {
      try {
        this.remember(version.fingerprint, await withRetries(() => this.client.register(subject, version.definition)));
      } catch (error) {
        if (!(error instanceof SchemaRegistryError) || error.code !== ErrorCode.SCHEMA_INCOMPATIBLE) throw error;
        const file = version.current
          ? `schemas/avro/${schema}.avsc`
          : `schemas/history/${schema}.v${version.version}.avsc`;
        throw new SchemaRegistryError(
          ErrorCode.SCHEMA_INCOMPATIBLE,
          `${schema} v${version.version} (${file}) is not BACKWARD compatible with the latest version the schema registry holds for ${subject}, so the registry refused it (${error.message}). Readers of ${topic} could not read old messages with it: change the schema compatibly (schemas/README.md) or write to a new topic.`,
          { cause: error },
        );
      }
    }
  }

  private remember(fingerprint: bigint, id: number): void {
    this.idByFingerprint.set(fingerprint, id);
    this.fingerprintById.set(id, Promise.resolve(fingerprint));
  }

  /** A process that registered nothing (an operator's tool) asks once per topic and schema. */
  private lookup(topic: string, fingerprint: bigint): Promise<number | null> {
    const key = `${topic}\u0000${fingerprint}`;
    let pending = this.lookups.get(key);
    if (!pending) {
      const version = this.schemas.find(fingerprint);
      pending = !version
        ? Promise.resolve(null)
        : this.client.lookup(`${topic}-value`, version.definition).then(
            (id) => {
              if (id !== null) this.remember(fingerprint, id);
              return id;
            },
            (error: unknown) => {
              // Unregistered framing still reads everywhere the crawler reads; the next send asks again.
              this.lookups.delete(key);
              this.logger.warn(
                { topic, err: errorMessage(error) },
                'schema registry lookup failed; sending single-object encoded',
              );
              return null;
            },
          );
      this.lookups.set(key, pending);
    }
    return pending;
  }

  private fingerprintOf(id: number): Promise<bigint | null> {
    let pending = this.fingerprintById.get(id);
    if (!pending) {
      pending = this.client.schemaById(id).then(
        (definition) => this.schemas.identify(definition)?.fingerprint ?? null,
        (error: unknown) => {
          this.fingerprintById.delete(id);
          this.logger.warn({ schemaId: id, err: errorMessage(error) }, 'schema registry did not give a schema id');
          return null;
        },
      );
      this.fingerprintById.set(id, pending);
    }
    return pending;
  }
}

/** A registry restarting beside the services is waited for briefly; a refusal is final at once. */
async function withRetries<T>(call: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof SchemaRegistryError) || !error.retriable || attempt >= attempts) throw error;
      await sleep(500 * 2 ** attempt);
    }
  }
}

/** The framing a Kafka client of this config writes and reads: none without SCHEMA_REGISTRY_URL. */
export function registryFramingOf(config: KafkaConfig, logger: Logger): RegistryFraming | null {
  if (!config.schemaRegistryUrl) return null;
  return new RegistryFraming(
    createSchemaRegistryClient(config.schemaRegistryUrl),
    logger.child({ component: 'schema-registry' }),
  );
}
