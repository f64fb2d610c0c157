import { Counter, Histogram, type Registry } from 'prom-client';
import type { StageObserver } from '../runtime/stage-runner.js';

/** Stage latency buckets: from a cache hit to a slow host's politeness wait. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The metrics every stage runner reports: messages in and out, processing time, retries, dead letters. */
export function createStageMetrics(registry: Registry): StageObserver {
  const consumed = new Counter({ name: 'crawler_messages_consumed_total', help: 'Messages taken from a topic.', labelNames: ['topic'], registers: [registry] });
  const produced = new Counter({ name: 'crawler_messages_produced_total', help: 'Messages produced and acknowledged, by topic.', labelNames: ['topic'], registers: [registry] });
  const duration = new Histogram({ name: 'crawler_stage_duration_seconds', help: 'Time from taking a message to its results being acknowledged.', labelNames: ['stage', 'result'], buckets: DURATION_BUCKETS, registers: [registry] });
  const retries = new Counter({ name: 'crawler_stage_retries_total', help: 'Processing attempts that failed and were retried, by error code.', labelNames: ['stage', 'code'], registers: [registry] });
  const deadLetters = new Counter({ name: 'crawler_dead_letters_total', help: 'Messages sent to the dead-letter topic.', labelNames: ['stage'], registers: [registry] });
  return {
    consumed: (topic) => consumed.inc({ topic }),
    produced: (topic, count) => produced.inc({ topic }, count),
    processed: (stage, durationMs, result) => {
      duration.observe({ stage, result }, durationMs / 1000);
      if (result === 'dead_letter') deadLetters.inc({ stage });
    },
    retried: (stage, code) => retries.inc({ stage, code }),
  };
}
