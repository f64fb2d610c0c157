import { Counter, Histogram, type Registry } from 'prom-client';
import { errorCode } from '../errors.js';
import type { Bus, BusProducer, OutgoingMessage } from '../ports/bus.js';
import { brokerName } from '../ports/prefixed-bus.js';
import { LATENCY_BUCKETS } from './latency-buckets.js';

/**
 * The bus's producer, counting what it puts on the bus: every message of this process, whoever
 * sends it (stage outputs, dead letters, the scheduler's frontier), once acknowledged, by topic as
 * Kafka names it.
 */
export function instrumentProducer(bus: Bus, registry: Registry): BusProducer {
  const producer = bus.producer();
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
    async send(name: string, messages: OutgoingMessage[]): Promise<void> {
      const topic = brokerName(bus, name);
      const stop = duration.startTimer({ topic });
      try {
        await producer.send(name, messages);
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
