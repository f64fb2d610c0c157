import { Counter, Histogram, type Registry } from 'prom-client';
import { errorCode } from '../errors.js';
import type { BusProducer, OutgoingMessage } from '../ports/bus.js';
import { LATENCY_BUCKETS } from './latency-buckets.js';

/**
 * The producer, counting what it puts on the bus: every message of this process, whoever sends it
 * (stage outputs, dead letters, the scheduler's frontier), once acknowledged.
 */
export function instrumentProducer(producer: BusProducer, registry: Registry): BusProducer {
  const produced = new Counter({
    name: 'crawler_messages_produced_total',
    help: 'Messages produced and acknowledged, by topic.',
    labelNames: ['topic'],
    registers: [registry],
  });
  const failures = new Counter({
    name: 'crawler_produce_errors_total',
    help: 'Produce requests that failed, by topic and error code.',
    labelNames: ['topic', 'code'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'crawler_produce_duration_seconds',
    help: 'Time from handing messages to the bus to their acknowledgement, by topic.',
    labelNames: ['topic'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return {
    async send(topic: string, messages: OutgoingMessage[]): Promise<void> {
      const stop = duration.startTimer({ topic });
      try {
        await producer.send(topic, messages);
      } catch (error) {
        failures.inc({ topic, code: errorCode(error) });
        throw error;
      }
      stop();
      produced.inc({ topic }, messages.length);
    },
    close: () => producer.close(),
  };
}
