import type { StageComparison } from '../bench-results.js';
import { startTestWebProcess } from '../test-web-process.js';
import type { TimeBudget } from '../time-budget.js';
import { measureElasticsearchStage } from './elasticsearch-stage.js';
import { measureExtractionStage } from './extraction-stage.js';
import { measureKafkaStage } from './kafka-stage.js';
import { measureRedisStage } from './redis-stage.js';
import { measureSimhashStage } from './simhash-stage.js';

/** Rough durations on a two-core machine, for the budget. */
export const STAGE_ESTIMATES_MS = {
  extraction: 40_000,
  redis: 20_000,
  simhash: 30_000,
  kafka: 90_000,
  elasticsearch: 30_000,
};

/**
 * Each stage against its physical limit, one after the other; a stage that fails or does not fit
 * the budget is reported as such, and the next one still runs.
 */
export async function runStageSuite(
  stack: Record<string, string> | null,
  budget: TimeBudget,
  reserveMs: number,
  log: (line: string) => void,
): Promise<StageComparison[]> {
  const web = await startTestWebProcess(['--profile', 'bench', '--hosts', '1', '--pages-per-host', '500']);
  const out: StageComparison[] = [];
  try {
    // Bench pages are uniform: a few hundred time the per-page cost as well as all of them would.
    const pages = await Promise.all(
      web.pages.map(async (url) => ({ url, body: Buffer.from(await (await fetch(url)).arrayBuffer()) })),
    );
    const stages: [string, keyof typeof STAGE_ESTIMATES_MS, boolean, () => Promise<StageComparison[]>][] = [
      ['link extraction', 'extraction', false, () => measureExtractionStage(pages)],
      ['exact-digest lookups (Redis)', 'redis', true, () => measureRedisStage(stack!)],
      ['SimHash + near-duplicate lookup', 'simhash', true, () => measureSimhashStage(stack!, pages)],
      ['Kafka produce/consume with the codec', 'kafka', true, () => measureKafkaStage(stack!, pages[1]!.body)],
      ['Elasticsearch bulk upserts', 'elasticsearch', true, () => measureElasticsearchStage(stack!)],
    ];
    for (const [what, estimate, needsStack, measure] of stages) {
      if (needsStack && !stack) {
        budget.skip(`stage: ${what}`, 'the local stack is not reachable (npm run stack:up)');
        continue;
      }
      if (!budget.allows(`stage: ${what}`, STAGE_ESTIMATES_MS[estimate], reserveMs)) continue;
      try {
        const rows = await measure();
        out.push(...rows);
        for (const row of rows)
          log(
            `[stages] ${row.stage}: ${row.status === 'measured' ? `${Math.round(row.ours!.perSecond)} vs ${Math.round(row.limit!.perSecond)}/s, ratio ${row.ratio!.toFixed(3)}` : row.status}`,
          );
      } catch (error) {
        out.push({ stage: what, status: 'failed', note: (error as Error).message.split('\n')[0] });
        log(`[stages] ${what}: failed: ${(error as Error).message}`);
      }
    }
    return out;
  } finally {
    await web.stop();
  }
}
