import { linkRecordId, type LinkBase } from '@crawler/core';

export interface RefusedSeed {
  url: string;
  /** The allow-list entry that admits exactly this seed's origin. */
  allowEntry: string;
}

/** Seeds of a job the address policy refused: the crawl could not even start from them. */
export async function findRefusedSeeds(
  linkbase: LinkBase,
  job: { id: string; seeds: readonly string[] },
): Promise<RefusedSeed[]> {
  const records = await linkbase.getMany(job.seeds.map((seed) => linkRecordId(job.id, seed)));
  const refused: RefusedSeed[] = [];
  for (const seed of job.seeds) {
    if (records.get(linkRecordId(job.id, seed))?.lastOutcome !== 'blocked_address') continue;
    const url = new URL(seed);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    refused.push({ url: seed, allowEntry: `${url.hostname}:${port}` });
  }
  return refused;
}

/** Why each refused seed was refused and how to admit it, for a person at a terminal. */
export function formatRefusedSeeds(refused: readonly RefusedSeed[], seedCount: number): string {
  const lines = refused.map(
    (seed) =>
      `crawler run: seed ${seed.url} was refused: its host has a private, loopback or reserved address, which the address policy refuses unless allowed (a guard against requests into internal networks).\n` +
      `  To crawl it, admit its origin: --allow-address ${seed.allowEntry} (or FETCHER_ALLOW_ADDRESSES=${seed.allowEntry})`,
  );
  if (refused.length === seedCount) lines.push('crawler run: every seed was refused; nothing was crawled.');
  return lines.join('\n');
}
