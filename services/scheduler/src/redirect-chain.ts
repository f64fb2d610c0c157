import { linkRecordId, type LinkBase, type LinkRecord } from '@crawler/core';

/**
 * The redirect loop through `originUrl`, if following redirectTo from `start` comes back to it
 * within `maxHops` records: the records of the loop, else null. Each hop is one link base read.
 */
export async function findRedirectLoop(
  linkbase: LinkBase,
  start: LinkRecord,
  originUrl: string,
  maxHops: number,
): Promise<LinkRecord[] | null> {
  const loop: LinkRecord[] = [];
  let current: LinkRecord | undefined = start;
  for (let hop = 0; current && hop <= maxHops; hop++) {
    if (current.url === originUrl) return loop;
    if (current.status !== 'redirect' || !current.redirectTo) return null;
    loop.push(current);
    const nextId = linkRecordId(current.jobId, current.redirectTo);
    current = (await linkbase.getMany([nextId])).get(nextId);
  }
  return null;
}
