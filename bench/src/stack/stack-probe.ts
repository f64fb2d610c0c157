import { Kafka, logLevel } from 'kafkajs';
import { stackEnv } from './stack-env.js';

/**
 * The stack's settings if Kafka, Elasticsearch, HBase's REST gateway and Redis all answer, with
 * Elasticsearch's version; else null and what did not answer.
 */
export async function probeStack(): Promise<{
  env: Record<string, string> | null;
  versions: Record<string, string>;
  problem?: string;
}> {
  const env = stackEnv();
  const versions: Record<string, string> = {};
  try {
    const json = async (url: string) =>
      (await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(5000) })).json();
    const es = (await json(`${env.ELASTICSEARCH_URL}/_nodes/_local?filter_path=nodes.*.version`)) as {
      nodes: Record<string, { version: string }>;
    };
    versions.Elasticsearch = Object.values(es.nodes)[0]?.version ?? 'unknown';
    versions.HBase = ((await json(`${env.HBASE_REST_URL}/version/cluster`)) as { Version: string }).Version;
    const admin = new Kafka({
      clientId: 'bench-probe',
      brokers: env.KAFKA_BROKERS!.split(','),
      logLevel: logLevel.NOTHING,
      connectionTimeout: 5000,
      retry: { retries: 1 },
    }).admin();
    await admin.connect();
    await admin.disconnect();
    return { env, versions };
  } catch (error) {
    return { env: null, versions, problem: (error as Error).message };
  }
}
