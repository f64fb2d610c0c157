import { Client } from '@elastic/elasticsearch';
import { deleteLinkBase } from '@crawler/elasticsearch';
import { createHbaseRestClient } from '@crawler/hbase';
import { loadRedisConfig } from '@crawler/redis';
import { deleteKeysWithPrefix } from '@crawler/redis/testing';
import { Kafka, logLevel } from 'kafkajs';
import { registerCleanup } from '../abort-cleanup.js';
import { freshStackNames } from './stack-env.js';

/**
 * Drops everything a bench run made on the shared stack, by the exact names it was given: its
 * topics (by prefix), index, its control index and index template, table and keys. Failures are reported, not thrown.
 */
export async function dropStackNames(env: Record<string, string>): Promise<string[]> {
  const problems: string[] = [];
  const attempt = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      problems.push(`${what}: ${(error as Error).message}`);
    }
  };
  await attempt('kafka topics', async () => {
    const admin = new Kafka({
      clientId: 'bench-cleanup',
      brokers: env.KAFKA_BROKERS!.split(','),
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(env.CRAWLER_TOPIC_PREFIX!));
      if (topics.length > 0) await admin.deleteTopics({ topics });
    } finally {
      await admin.disconnect();
    }
  });
  await attempt('elasticsearch index', async () => {
    const client = new Client({ node: env.ELASTICSEARCH_URL! });
    try {
      await deleteLinkBase(client, env.ELASTICSEARCH_INDEX!);
    } finally {
      await client.close();
    }
  });
  await attempt('hbase table', async () => {
    const client = createHbaseRestClient({ url: env.HBASE_REST_URL!, requestTimeoutMs: 120_000 });
    if (await client.getSchema(env.HBASE_TABLE!)) await client.dropTable(env.HBASE_TABLE!);
  });
  await attempt('redis keys', () =>
    deleteKeysWithPrefix(
      loadRedisConfig({ env: { REDIS_URL: env.REDIS_URL!, REDIS_KEY_PREFIX: env.REDIS_KEY_PREFIX! } }),
    ),
  );
  return problems;
}

/** Runs `work` on topics, an index, a table and keys of its own, dropped afterwards whatever happens. */
export async function withFreshStack<T>(
  stack: Record<string, string>,
  label: string,
  work: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const env = { ...stack, ...freshStackNames(label) };
  const unregister = registerCleanup(() => dropStackNames(env));
  try {
    return await work(env);
  } finally {
    unregister();
    for (const problem of await dropStackNames(env))
      process.stderr.write(`cleanup of ${env.CRAWLER_TOPIC_PREFIX}*: ${problem}\n`);
  }
}
