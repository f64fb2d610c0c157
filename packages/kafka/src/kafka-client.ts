import type { Logger } from '@crawler/core';
import { Kafka, type SASLOptions } from 'kafkajs';
import { createKafkaLogCreator, kafkaLogLevel } from './kafka-log.js';
import type { KafkaConfig } from './kafka-settings.js';

/** A kafkajs client for one role; every consumer gets its own so brokers see its stage in the client id. */
export function createKafkaClient(config: KafkaConfig, logger: Logger, clientId: string = config.clientId): Kafka {
  return new Kafka({
    clientId,
    brokers: [...config.brokers],
    ssl: config.ssl,
    sasl: saslOptions(config),
    connectionTimeout: config.connectionTimeoutMs,
    logLevel: kafkaLogLevel(config),
    logCreator: createKafkaLogCreator(logger, secretsOf(config)),
  });
}

/** Values that must never reach a log line or an error message. */
export function secretsOf(config: KafkaConfig): string[] {
  return config.saslPassword ? [config.saslPassword] : [];
}

function saslOptions(config: KafkaConfig): SASLOptions | undefined {
  if (config.saslMechanism === 'none') return undefined;
  const username = config.saslUsername ?? '';
  const password = config.saslPassword ?? '';
  return { mechanism: config.saslMechanism, username, password };
}
