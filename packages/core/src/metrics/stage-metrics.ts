import { Counter, Histogram, type Registry } from 'prom-client';
import type { StageObserver } from '../runtime/stage-runner.js';
import { LATENCY_BUCKETS } from './latency-buckets.js';

/** The metrics every stage runner reports: messages in, processing time, retries, dead letters. */
export function createStageMetrics(registry: Registry): StageObserver {
  const consumed = new Counter({
    name: 'crawler_messages_consumed_total',
    help: 'Messages taken from a topic.',
    labelNames: ['topic'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'crawler_stage_duration_seconds',
    help: 'Time from taking a message to its results being acknowledged.',
    labelNames: ['stage', 'result'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const retries = new Counter({
    name: 'crawler_stage_retries_total',
    help: 'Processing attempts that failed and were retried, by error code.',
    labelNames: ['stage', 'code'],
    registers: [registry],
  });
  const deadLetters = new Counter({
    name: 'crawler_dead_letters_total',
    help: 'Messages sent to the dead-letter topic.',
    labelNames: ['stage'],
    registers: [registry],
  });
  return {
    consumed: (topic) => consumed.inc({ topic }),
    processed: (stage, durationMs, result) => {
      duration.observe({ stage, result }, durationMs / 1000);
      if (result === 'dead_letter') deadLetters.inc({ stage });
    },
    retried: (stage, code) => retries.inc({ stage, code }),
  };
}
