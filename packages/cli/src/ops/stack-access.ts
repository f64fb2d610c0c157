import {
  CrawlerError,
  errorMessage,
  loadRuntimeConfig,
  prefixTopics,
  silentLogger,
  type Bus,
  type RuntimeConfig,
  ErrorCode,
} from '@crawler/core';
import { createKafkaBus, loadKafkaConfig, type KafkaConfig } from '@crawler/kafka';
import { UsageError } from '../usage-error.js';

/** A system the command needs did not answer: printed as one line naming it and where it was looked for. */
export class StackUnreachableError extends CrawlerError {
  constructor(message: string, cause?: unknown) {
    super(ErrorCode.CLI_STACK_UNREACHABLE, message, { cause });
  }
}

/** How long a command waits for the first answer of a system before it gives up. */
const FIRST_ANSWER_MS = 15_000;

export interface KafkaAccess {
  runtime: RuntimeConfig;
  kafka: KafkaConfig;
  /** The crawl's topics and groups by their catalog names (CRAWLER_TOPIC_PREFIX applied by the bus). */
  bus: Bus;
  /** Every topic of the cluster by its own name, for topics outside the crawl; closed with `bus`. */
  cluster: Bus;
  /** "Kafka at host:port (KAFKA_BROKERS)", for messages. */
  where: string;
}

/**
 * The crawl's Kafka, from the variables the services read (KAFKA_*, CRAWLER_TOPIC_PREFIX).
 * Unlike a service it creates no topics: these commands only look.
 */
export function openKafka(command: string, env: NodeJS.ProcessEnv): KafkaAccess {
  const runtime = loadRuntimeConfig({ env });
  if (runtime.bus !== 'kafka') {
    throw new UsageError(
      `crawler ${command}: CRAWLER_BUS=${runtime.bus}: an embedded bus lives inside its crawling process; this command reads a crawl on Kafka`,
    );
  }
  const kafka = loadKafkaConfig({ env });
  const cluster = createKafkaBus(kafka, silentLogger());
  return {
    runtime,
    kafka,
    bus: prefixTopics(cluster, runtime.topicPrefix),
    cluster,
    where: `Kafka at ${kafka.brokers.join(',')} (KAFKA_BROKERS)`,
  };
}

/**
 * The first call to a system: silent for too long, or failing as a backend does (retriable), it
 * becomes a StackUnreachableError; a final error (a missing topic, a bad setting) passes as it is.
 */
export async function reach<T>(where: string, call: () => Promise<T>, timeoutMs = FIRST_ANSWER_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new StackUnreachableError(`cannot reach ${where}: no answer within ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([call(), timeout]);
  } catch (error) {
    if (error instanceof StackUnreachableError || (error instanceof CrawlerError && !error.retriable)) throw error;
    throw new StackUnreachableError(`cannot reach ${where}: ${firstLine(errorMessage(error))}`, error);
  } finally {
    clearTimeout(timer);
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 300);
}
