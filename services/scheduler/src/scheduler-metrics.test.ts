import { createMetricsRegistry } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { countHandedOut, registerSchedulerMetrics } from './scheduler-metrics.js';
import { createSchedulerCounters } from './scheduler-stages.js';

describe('scheduler metrics', () => {
  it('exposes hand-outs by class and level, outcomes and state at scrape time', async () => {
    const registry = createMetricsRegistry('scheduler', { processMetrics: false });
    const counters = createSchedulerCounters();
    const handedOut = new Map<string, number>();
    let inFlight = 3;
    registerSchedulerMetrics(registry, {
      counters,
      handedOut,
      inFlight: () => inFlight,
      partitions: () => 6,
      poisoned: () => 1,
      monitored: () => 4,
      paused: () => ({ jobs: 1, queues: 2 }),
    });
    countHandedOut(handedOut, [
      makeLinkRecord('http://a.test/1', { level: 2 }),
      makeLinkRecord('http://a.test/2', { level: 2 }),
      makeLinkRecord('http://a.test/3', { trafficClass: 'update' }),
    ]);
    counters.outcomes.set('ok', 5);
    inFlight = 7;
    const text = await registry.metrics();
    expect(text).toContain('crawler_scheduler_handed_out_total{class="discovery",level="2",service="scheduler"} 2');
    expect(text).toContain('crawler_scheduler_handed_out_total{class="update",level="0",service="scheduler"} 1');
    expect(text).toContain('crawler_scheduler_outcomes_total{outcome="ok",service="scheduler"} 5');
    expect(text).toContain('crawler_scheduler_in_flight{service="scheduler"} 7');
    expect(text).toContain('crawler_scheduler_partitions{service="scheduler"} 6');
    expect(text).toContain('crawler_scheduler_paused{kind="queue",service="scheduler"} 2');
  });
});
