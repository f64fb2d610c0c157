import type { StageComparison } from '../bench-results.js';
import { startTestWebProcess } from '../test-web-process.js';
import type { TimeBudget } from '../time-budget.js';
import { measureElasticsearchStage } from './elasticsearch-stage.js';
import { measureExtractionStage } from './extraction-stage.js';
import { measureKafkaStage } from './kafka-stage.js';
import { measureRedisStage } from './redis-stage.js';
import { measureSimhashStage } from './simhash-stage.js';

/** Rough durations on a two-core machine, for the budget. */
export const STAGE_ESTIMATES_MS = { extraction: 40_000, redis: 20_000, kafka: 90_000, elasticsearch: 30_000 };

/**
 * Each stage against its physical limit, one after the other; a stage that fails or does not fit
 * the budget is reported as such, and the next one still runs.
 */
export async function runStageSuite(stack: Record<string, string> | null, budget: TimeBudget, reserveMs: number, log: (line: string) => void): Promise<StageComparison[]> {
  const web = await startTestWebProcess(['--profile', 'bench', '--hosts', '1', '--pages-per-host', '500']);
  const out: StageComparison[] = [];
  try {
    const page = Buffer.from(await (await fetch(web.pages[1]!)).arrayBuffer());
    const stages: [string, keyof typeof STAGE_ESTIMATES_MS | null, boolean, () => Promise<StageComparison[]>][] = [
      ['link extraction', 'extraction', false, () => measureExtractionStage(web.pages)],
      ['exact-digest lookups (Redis)', 'redis', true, () => measureRedisStage(stack!)],
      ['SimHash + near-duplicate lookup', null, false, () => measureSimhashStage()],
      ['Kafka produce/consume with the codec', 'kafka', true, () => measureKafkaStage(stack!, page)],
      ['Elasticsearch bulk upserts', 'elasticsearch', true, () => measureElasticsearchStage(stack!)],
    ];
    for (const [what, estimate, needsStack, measure] of stages) {
      if (needsStack && !stack) {
        budget.skip(`stage: ${what}`, 'the local stack is not reachable (npm run stack:up)');
        continue;
      }
      if (estimate && !budget.allows(`stage: ${what}`, STAGE_ESTIMATES_MS[estimate], reserveMs)) continue;
      try {
        const rows = await measure();
        out.push(...rows);
        for (const row of rows) log(`[stages] ${row.stage}: ${row.status === 'measured' ? `${Math.round(row.ours!.perSecond)} vs ${Math.round(row.limit!.perSecond)}/s, ratio ${row.ratio!.toFixed(3)}` : row.status}`);
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
