import { randomUUID } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { deleteLinkBase } from '@crawler/elasticsearch';
import { createHbaseRestClient } from '@crawler/hbase';
import { loadRedisConfig } from '@crawler/redis';
import { deleteKeysWithPrefix } from '@crawler/redis/testing';
import { Kafka, logLevel } from 'kafkajs';
import type { StackAddresses } from './stack-env.js';

export interface StackNames {
  CRAWLER_TOPIC_PREFIX: string;
  ELASTICSEARCH_INDEX: string;
  HBASE_TABLE: string;
  REDIS_KEY_PREFIX: string;
}

/** Topics, index, table and keys of one test alone: others share the stack. */
export function freshNames(label: string): StackNames {
  const run = `rel-${label}-${randomUUID().slice(0, 8)}`;
  return {
    CRAWLER_TOPIC_PREFIX: `${run}.`,
    ELASTICSEARCH_INDEX: `crawler-${run}`,
    HBASE_TABLE: `crawler_${run.replace(/-/g, '_')}`,
    REDIS_KEY_PREFIX: `crawler-${run}:`,
  };
}

/** Drops what a test made, by its exact names; returns what could not be dropped (cleanup must not fail a test). */
export async function dropNames(stack: StackAddresses, names: StackNames): Promise<string[]> {
  const problems: string[] = [];
  const attempt = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      problems.push(`${what}: ${(error as Error).message}`);
    }
  };
  await attempt('topics', async () => {
    const admin = new Kafka({
      clientId: 'reliability-cleanup',
      brokers: stack.KAFKA_BROKERS.split(','),
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(names.CRAWLER_TOPIC_PREFIX));
      if (topics.length > 0) await admin.deleteTopics({ topics });
    } finally {
      await admin.disconnect();
    }
  });
  await attempt('index', async () => {
    const client = new Client({ node: stack.ELASTICSEARCH_URL });
    try {
      await deleteLinkBase(client, names.ELASTICSEARCH_INDEX);
    } finally {
      await client.close();
    }
  });
  await attempt('table', async () => {
    const client = createHbaseRestClient({ url: stack.HBASE_REST_URL, requestTimeoutMs: 60_000 });
    if (await client.getSchema(names.HBASE_TABLE)) await client.dropTable(names.HBASE_TABLE);
  });
  await attempt('keys', () =>
    deleteKeysWithPrefix(
      loadRedisConfig({ env: { REDIS_URL: stack.REDIS_URL, REDIS_KEY_PREFIX: names.REDIS_KEY_PREFIX } }),
    ),
  );
  return problems;
}
