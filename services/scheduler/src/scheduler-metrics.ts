import { Counter, Gauge, type LinkRecord, type Registry } from '@crawler/core';
import type { SchedulerCounters } from './scheduler-stages.js';

/** What the scheduler counts as it runs; read by the registry at each scrape. */
export interface SchedulerGauges {
  counters: SchedulerCounters;
  /** Handed out, by "class/level". */
  handedOut: Map<string, number>;
  inFlight(): number;
  /** crawl.status partitions this scheduler owns. */
  partitions(): number;
  poisoned(): number;
  monitored(): number;
  paused(): { jobs: number; queues: number };
}

export function countHandedOut(handedOut: Map<string, number>, records: readonly LinkRecord[]): void {
  for (const record of records) {
    const key = `${record.trafficClass}/${record.level}`;
    handedOut.set(key, (handedOut.get(key) ?? 0) + 1);
  }
}

/**
 * Every scheduler metric, declared once: URLs handed out by traffic class and level, outcomes
 * applied, URLs discovered, in flight, given up (poison), made due by monitoring schedules, the
 * partitions owned, and what is paused. The service keeps the counts; they are copied into the registry at each scrape.
 */
export function registerSchedulerMetrics(registry: Registry, gauges: SchedulerGauges): void {
  new Counter({
    name: 'crawler_scheduler_handed_out_total',
    help: 'URLs handed to the fetchers, by traffic class and priority level.',
    labelNames: ['class', 'level'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [key, count] of gauges.handedOut) {
        const [trafficClass, level] = key.split('/');
        this.inc({ class: trafficClass, level }, count);
      }
    },
  });
  new Counter({
    name: 'crawler_scheduler_outcomes_total',
    help: 'Fetch outcomes applied to the link base, by outcome.',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, count] of gauges.counters.outcomes) this.inc({ outcome }, count);
    },
  });
  new Counter({
    name: 'crawler_scheduler_discovered_total',
    help: 'URLs added to the link base.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(gauges.counters.discovered);
    },
  });
  new Counter({
    name: 'crawler_scheduler_poisoned_total',
    help: 'URLs given up because their leases kept running out without an answer.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(gauges.poisoned());
    },
  });
  new Counter({
    name: 'crawler_scheduler_monitored_total',
    help: 'URLs made due by a job schedule (monitoring).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(gauges.monitored());
    },
  });
  new Gauge({
    name: 'crawler_scheduler_in_flight',
    help: 'URLs handed out and not answered yet.',
    registers: [registry],
    collect() {
      this.set(gauges.inFlight());
    },
  });
  new Gauge({
    name: 'crawler_scheduler_partitions',
    help: 'crawl.status partitions this scheduler owns: their hosts are its to hand out.',
    registers: [registry],
    collect() {
      this.set(gauges.partitions());
    },
  });
  new Gauge({
    name: 'crawler_scheduler_paused',
    help: 'Paused jobs and queues.',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const paused = gauges.paused();
      this.set({ kind: 'job' }, paused.jobs);
      this.set({ kind: 'queue' }, paused.queues);
    },
  });
}
