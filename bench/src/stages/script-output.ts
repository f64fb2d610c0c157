/**
 * Readers for the printed output of the packages' own bench scripts, which the bench calls
 * rather than copies. A line that no longer matches gives null, so a changed script shows up
 * as a failed stage with its output, never as a wrong figure.
 */
const number = (text: string) => Number(text.replace(/,/g, ''));

export interface RedisBenchFigures {
  mode: string;
  /** putIfAbsent of new keys and of keys already there, per second. */
  newKeysPerSecond: number;
  hitsPerSecond: number;
  /** redis-benchmark on the same server. */
  setPerSecond: number;
  getPerSecond: number;
}

/** packages/redis/scripts/bench-fingerprints.mjs: one block per mode; the last in-flight level counts. */
export function parseRedisBench(text: string): RedisBenchFigures[] | null {
  const blocks = text.split(/\n(?=\S+: [\d,]+ putIfAbsent)/).filter((block) => /putIfAbsent/.test(block));
  const figures = blocks.map((block) => {
    const mode = /^(\S+):/.exec(block.trim())?.[1];
    const lookups = [...block.matchAll(/new keys\s+([\d,]+)\/s, hits\s+([\d,]+)\/s/g)].at(-1);
    const server = /SET\s+([\d,.]+)\/s, GET\s+([\d,.]+)\/s/.exec(block);
    if (!mode || !lookups || !server) return null;
    return {
      mode,
      newKeysPerSecond: number(lookups[1]!),
      hitsPerSecond: number(lookups[2]!),
      setPerSecond: number(server[1]!),
      getPerSecond: number(server[2]!),
    };
  });
  return figures.length > 0 && figures.every((figure) => figure !== null) ? (figures as RedisBenchFigures[]) : null;
}

export interface ElasticsearchBenchFigures {
  records: number;
  bareOneAtATime: number;
  bareTwoAtATime: number;
  insertNew: number;
  insertKnown: number;
}

/** packages/elasticsearch/scripts/bench-linkbase.mjs: the insert comparison (medians it prints). */
export function parseElasticsearchBench(text: string): ElasticsearchBenchFigures | null {
  const rate = (pattern: RegExp) => {
    const match = pattern.exec(text);
    return match ? number(match[1]!) : null;
  };
  const records = rate(/insert (\d+) records/);
  const bareOne = rate(/bare client\.bulk.*1 at a time:\s+([\d,]+) docs\/s/);
  const bareTwo = rate(/bare client\.bulk.*2 at a time:\s+([\d,]+) docs\/s/);
  const fresh = rate(/linkbase\.insertNew, .*?:\s+([\d,]+) docs\/s/);
  const known = rate(/linkbase\.insertNew again.*?:\s+([\d,]+) docs\/s/);
  if (records === null || bareOne === null || bareTwo === null || fresh === null || known === null) return null;
  return { records, bareOneAtATime: bareOne, bareTwoAtATime: bareTwo, insertNew: fresh, insertKnown: known };
}
