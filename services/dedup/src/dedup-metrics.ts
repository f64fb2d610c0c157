import { Counter, Histogram, Registry } from 'prom-client';

/**
 * Every dedup metric, declared once and registered on the service's registry. Each decision of the
 * status (change, near-duplicate distance, verdict) is also a series here.
 */
export function createDedupMetrics(registry: Registry = new Registry()) {
  const registers = [registry];
  const decisions = new Counter({
    name: 'crawler_dedup_decisions_total',
    help: 'Pages decided, by decision: new, changed, unchanged, duplicate, near_duplicate; noindex pages also count as noindex.',
    labelNames: ['decision'],
    registers,
  });
  const distance = new Histogram({
    name: 'crawler_dedup_near_duplicate_distance',
    help: 'SimHash distance of pages found to be near duplicates.',
    buckets: [0, 1, 2, 3, 4, 5, 6],
    registers,
  });
  const verdicts = new Counter({
    name: 'crawler_dedup_verdicts_total',
    help: 'Verdicts attached to pages, by verdict and whether the judge ran or the stored verdict of the same content was reused.',
    labelNames: ['verdict', 'source'],
    registers,
  });
  const judgeCalls = new Histogram({
    name: 'crawler_dedup_judge_seconds',
    help: 'Time of judge calls, by judge and result (ok, error).',
    labelNames: ['judge', 'result'],
    buckets: [0.0001, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const reviews = new Counter({
    name: 'crawler_dedup_reviews_total',
    help: 'Pages sent to crawl.review with a harmful verdict.',
    registers,
  });
  const outlinks = new Counter({
    name: 'crawler_dedup_outlinks_total',
    help: "Outlinks of new, changed and near-duplicate pages, by whether they went to the scheduler (passed) or were held back (seen: some page passed them on before, or the near duplicate's original has them).",
    labelNames: ['result'],
    registers,
  });
  const templates = new Counter({
    name: 'crawler_dedup_template_events_total',
    help: 'Site-template events: page sampled for learning, template learned, pages filed again in the near-duplicate index with the learned template.',
    labelNames: ['event'],
    registers,
  });
  const rechecks = new Counter({
    name: 'crawler_dedup_template_rechecks_total',
    help: 'Changed-looking pages whose stored version was re-digested with the current template, by result.',
    labelNames: ['result'],
    registers,
  });
  const candidates = new Histogram({
    name: 'crawler_dedup_simhash_candidates',
    help: 'Index entries read per near-duplicate lookup.',
    buckets: [0, 1, 2, 5, 10, 20, 50, 100, 500],
    registers,
  });
  return {
    decision: (decision: string) => decisions.inc({ decision }),
    nearDuplicate: (bits: number) => distance.observe(bits),
    verdict: (verdict: string, source: 'judged' | 'cached') => verdicts.inc({ verdict, source }),
    judged: (judge: string, result: 'ok' | 'error', seconds: number) => judgeCalls.observe({ judge, result }, seconds),
    review: () => reviews.inc(),
    outlinks: (passed: number, seen: number) => {
      if (passed > 0) outlinks.inc({ result: 'passed' }, passed);
      if (seen > 0) outlinks.inc({ result: 'seen' }, seen);
    },
    template: (event: 'sampled' | 'learned' | 'refiled', count = 1) => templates.inc({ event }, count),
    recheck: (result: 'unchanged' | 'changed' | 'missing') => rechecks.inc({ result }),
    candidates: (count: number) => candidates.observe(count),
  };
}

export type DedupMetrics = ReturnType<typeof createDedupMetrics>;
