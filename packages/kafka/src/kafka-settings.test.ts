import { ConfigError, describeSettings } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { kafkaSettings, loadKafkaConfig } from './kafka-settings.js';

describe('loadKafkaConfig', () => {
  it('has defaults for a local plaintext broker', () => {
    expect(loadKafkaConfig({ env: {} })).toMatchObject({
      brokers: ['127.0.0.1:9092'],
      clientId: 'crawler',
      ssl: false,
      saslMechanism: 'none',
      compression: 'gzip',
      replicationFactor: 1,
      sessionTimeoutMs: 30_000,
      logLevel: 'warn',
    });
  });

  it('reads a comma separated broker list, booleans and numbers from the environment', () => {
    const config = loadKafkaConfig({
      env: {
        KAFKA_BROKERS: 'k1:9092, k2:9093',
        KAFKA_SSL: 'true',
        KAFKA_REPLICATION_FACTOR: '3',
        KAFKA_COMPRESSION: 'none',
      },
    });
    expect(config.brokers).toEqual(['k1:9092', 'k2:9093']);
    expect(config.ssl).toBe(true);
    expect(config.replicationFactor).toBe(3);
    expect(config.compression).toBe('none');
  });

  it('refuses a broker without a port, naming the variable', () => {
    expect(() => loadKafkaConfig({ env: { KAFKA_BROKERS: 'kafka.internal' } })).toThrow(/KAFKA_BROKERS.*host:port/);
  });

  it('refuses an unknown SASL mechanism or compression', () => {
    expect(() => loadKafkaConfig({ env: { KAFKA_SASL_MECHANISM: 'gssapi' } })).toThrow(/KAFKA_SASL_MECHANISM/);
    expect(() => loadKafkaConfig({ env: { KAFKA_COMPRESSION: 'zstd' } })).toThrow(/KAFKA_COMPRESSION/);
  });

  it('refuses a session timeout the broker would refuse by default', () => {
    expect(() => loadKafkaConfig({ env: { KAFKA_SESSION_TIMEOUT_MS: '1000' } })).toThrow(/KAFKA_SESSION_TIMEOUT_MS/);
  });

  it('fails at start when a SASL mechanism lacks credentials, naming the missing variables', () => {
    expect(() => loadKafkaConfig({ env: { KAFKA_SASL_MECHANISM: 'scram-sha-512' } })).toThrow(ConfigError);
    expect(() => loadKafkaConfig({ env: { KAFKA_SASL_MECHANISM: 'scram-sha-512' } })).toThrow(
      /KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD/,
    );
    expect(() => loadKafkaConfig({ env: { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'crawler' } })).toThrow(
      /needs KAFKA_SASL_PASSWORD;/,
    );
    expect(() => loadKafkaConfig({ env: { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_PASSWORD: 'p4ss-w0rd' } })).toThrow(
      /needs KAFKA_SASL_USERNAME;/,
    );
  });

  it('accepts SASL with both credentials and never prints the password in an error', () => {
    const config = loadKafkaConfig({
      env: { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'crawler', KAFKA_SASL_PASSWORD: 'p4ss-w0rd' },
    });
    expect(config.saslPassword).toBe('p4ss-w0rd');
    try {
      loadKafkaConfig({
        env: { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_PASSWORD: 'p4ss-w0rd', KAFKA_SESSION_TIMEOUT_MS: 'x' },
      });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain('p4ss-w0rd');
    }
  });

  it('documents every variable without showing the password', () => {
    const lines = describeSettings(kafkaSettings).join('\n');
    for (const name of [
      'KAFKA_BROKERS',
      'KAFKA_CLIENT_ID',
      'KAFKA_SSL',
      'KAFKA_SASL_MECHANISM',
      'KAFKA_SASL_USERNAME',
      'KAFKA_SASL_PASSWORD',
      'KAFKA_COMPRESSION',
      'KAFKA_REPLICATION_FACTOR',
      'KAFKA_CONNECTION_TIMEOUT_MS',
      'KAFKA_SESSION_TIMEOUT_MS',
    ]) {
      expect(lines).toContain(name);
    }
  });
});
