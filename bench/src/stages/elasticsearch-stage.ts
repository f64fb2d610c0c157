import { loadavg } from 'node:os';
import type { StageComparison } from '../bench-results.js';
import { runPackageScript } from './run-script.js';
import { parseElasticsearchBench } from './script-output.js';

const SCRIPT = 'packages/elasticsearch/scripts/bench-linkbase.mjs';

/**
 * Link base bulk writes (insertNew: create-if-absent in bulk, as the scheduler records newly
 * discovered URLs) against a bare client.bulk of the same documents into an index made from the
 * same template, by the Elasticsearch package's own script (median of 3 alternating runs).
 */
export async function measureElasticsearchStage(env: Record<string, string>): Promise<StageComparison[]> {
  const output = await runPackageScript(
    SCRIPT,
    [],
    { ...env, BENCH_INSERT: '20000', BENCH_REPEAT: '3', BENCH_SIZES: '10000', BENCH_ROUNDS: '5' },
    600_000,
  );
  const figures = parseElasticsearchBench(output);
  if (!figures)
    return [
      {
        stage: 'Elasticsearch bulk upserts',
        status: 'failed',
        note: `could not read ${SCRIPT} output:\n${output.slice(-800)}`,
      },
    ];
  const loadAverage = loadavg()[0]!;
  const limit = {
    what: 'bare client.bulk create, 1,000 per request, 2 at a time, docs/s',
    perSecond: figures.bareTwoAtATime,
  };
  return [
    {
      stage: `Elasticsearch bulk upserts, new URLs (${figures.records.toLocaleString('en-US')} records)`,
      short: 'Elasticsearch bulk, new URLs',
      status: 'measured',
      ours: { what: 'linkbase.insertNew, 10,000 per call, docs/s', perSecond: figures.insertNew },
      limit,
      ratio: figures.insertNew / figures.bareTwoAtATime,
      loadAverage,
    },
    {
      stage: 'Elasticsearch bulk upserts, URLs already known',
      short: 'Elasticsearch bulk, known URLs',
      status: 'measured',
      ours: { what: 'linkbase.insertNew, every record known (409), docs/s', perSecond: figures.insertKnown },
      limit,
      ratio: figures.insertKnown / figures.bareTwoAtATime,
      loadAverage,
      note: 'a known URL is answered by a 409 conflict, cheaper than a write',
    },
  ];
}
