import { ConfigError, loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';

const hostPort = z.string().regex(/^[^\s:]+:\d{1,5}$/, 'host:port');

/** Every Kafka setting, with its environment variable and default. */
export const kafkaSettings = {
  brokers: setting(
    'KAFKA_BROKERS',
    z.array(hostPort).min(1).default(['127.0.0.1:9092']),
    'Kafka bootstrap servers, comma separated host:port.',
  ),
  clientId: setting(
    'KAFKA_CLIENT_ID',
    z.string().min(1).default('crawler'),
    'Client id the brokers see; each consumer appends its stage name.',
  ),
  ssl: setting('KAFKA_SSL', z.boolean().default(false), 'Connect with TLS (system CAs).'),
  saslMechanism: setting(
    'KAFKA_SASL_MECHANISM',
    z.enum(['none', 'plain', 'scram-sha-256', 'scram-sha-512']).default('none'),
    'SASL mechanism: none, plain, scram-sha-256 or scram-sha-512; the last three need KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD.',
  ),
  saslUsername: setting('KAFKA_SASL_USERNAME', z.string().min(1).optional(), 'SASL user name.'),
  saslPassword: setting('KAFKA_SASL_PASSWORD', z.string().min(1).optional(), 'SASL password.', { secret: true }),
  compression: setting(
    'KAFKA_COMPRESSION',
    z.enum(['none', 'gzip']).default('gzip'),
    'Compression of produced batches: none or gzip.',
  ),
  replicationFactor: setting(
    'KAFKA_REPLICATION_FACTOR',
    z.number().int().min(1).default(1),
    'Replication factor of topics the crawler creates.',
  ),
  connectionTimeoutMs: setting(
    'KAFKA_CONNECTION_TIMEOUT_MS',
    z.number().int().min(100).default(3000),
    'TCP (and TLS) connect timeout to a broker.',
  ),
  sessionTimeoutMs: setting(
    'KAFKA_SESSION_TIMEOUT_MS',
    z.number().int().min(6000).max(300_000).default(30_000),
    'A consumer that sends no heartbeat for this long is removed from its group (the broker bounds it with group.min/max.session.timeout.ms).',
  ),
  rebalanceTimeoutMs: setting(
    'KAFKA_REBALANCE_TIMEOUT_MS',
    z.number().int().min(1000).default(60_000),
    'How long a member may take, once a rebalance starts, to finish the message it holds, commit and rejoin.',
  ),
  // Secret because a registry behind a proxy may take user:password@ in the URL.
  schemaRegistryUrl: setting(
    'SCHEMA_REGISTRY_URL',
    z
      .string()
      .regex(
        /^https?:\/\/[^\s/]+(\/[^\s]*)?$/,
        'expected the http(s) base URL of a Confluent-compatible schema registry, e.g. http://registry:8080/apis/ccompat/v6',
      )
      .optional(),
    "Base URL of a schema registry that speaks the Confluent REST API (Apicurio Registry: http://host:port/apis/ccompat/v6). When set, services register the catalog's schemas at start (subject <topic>-value, BACKWARD compatibility) and write the registry wire format (byte 0, 4-byte schema id, Avro body); readers accept it and single-object encoding alike. Unset, messages are single-object encoded.",
    { secret: true },
  ),
  logLevel: setting(
    'KAFKA_LOG_LEVEL',
    z.enum(['error', 'warn', 'info', 'debug']).default('warn'),
    "Lowest level of the Kafka client's own log lines that reach the service log.",
  ),
};

export type KafkaConfig = ConfigOf<typeof kafkaSettings>;

/** Parses the Kafka settings once, at start; a SASL mechanism without credentials fails here. */
export function loadKafkaConfig(options?: LoadOptions): KafkaConfig {
  return checkKafkaConfig(loadConfig('kafka', kafkaSettings, options));
}

/** Checks what one setting alone cannot: SASL needs both credentials. */
export function checkKafkaConfig(config: KafkaConfig): KafkaConfig {
  if (config.saslMechanism === 'none') return config;
  const missing = [
    config.saslUsername ? null : kafkaSettings.saslUsername.env,
    config.saslPassword ? null : kafkaSettings.saslPassword.env,
  ].filter((name): name is string => name !== null);
  if (missing.length > 0) {
    throw new ConfigError(
      `kafka: KAFKA_SASL_MECHANISM=${config.saslMechanism} needs ${missing.join(' and ')}; set them, or set KAFKA_SASL_MECHANISM=none.`,
    );
  }
  return config;
}
