import { parseArgs } from 'node:util';
import {
  dueFirst,
  policies,
  recordWebHistory,
  schedulerOrder,
  simulate,
  type SimulationResult,
} from './recrawl-simulation.js';

/**
 * `node bench/dist/recrawl-bench.js`: re-crawl policies on simulated rounds (days) of the test web,
 * each seed its own web: every page fetched at round 0, then as each policy asks, without a budget
 * and with a daily budget of re-fetches. Prints changes found per fetch and freshness (the share of
 * page-days whose stored copy was current). Deterministic: no timing involved.
 */
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '60' },
    seeds: { type: 'string', default: '1,2,3' },
    budgets: { type: 'string', default: '40,20' },
    json: { type: 'boolean', default: false },
  },
});

const selection = {
  classShares: { discovery: 0.5, freshness: 0.3, update: 0.2 },
  levelWeights: [8, 4, 2, 1],
  hostOrder: 'breadth-first' as const,
};
const rows: (SimulationResult & { seed: number; pages: number; budget: string; order: string })[] = [];
for (const seed of values.seeds.split(',').map(Number)) {
  const history = await recordWebHistory(Number(values.rounds), seed);
  for (const budget of [undefined, ...values.budgets.split(',').map(Number)]) {
    for (const [name, factory] of Object.entries(policies())) {
      const label = budget === undefined ? 'none' : `${budget}/day`;
      rows.push({
        seed,
        pages: history.pages.length,
        budget: label,
        order: budget === undefined ? '-' : 'earliest due',
        ...simulate(history, name, factory, budget, dueFirst),
      });
      if (budget !== undefined && name.startsWith('Poisson'))
        rows.push({
          seed,
          pages: history.pages.length,
          budget: label,
          order: 'scheduler',
          ...simulate(history, name, factory, budget, schedulerOrder(selection)),
        });
    }
  }
}

if (values.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
else {
  process.stdout.write(
    '| seed | pages | budget | order | policy | re-fetches | changes found | changes / fetch | freshness |\n|---|---|---|---|---|---|---|---|---|\n',
  );
  for (const row of rows) {
    process.stdout.write(
      `| ${row.seed} | ${row.pages} | ${row.budget} | ${row.order} | ${row.policy} | ${row.fetches} | ${row.changesFound} | ${row.changesPerFetch.toFixed(3)} | ${row.freshness.toFixed(3)} |\n`,
    );
  }
}
