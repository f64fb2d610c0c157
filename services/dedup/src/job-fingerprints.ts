import type { FingerprintStore } from '@crawler/core';

/**
 * The key prefix of a job's fingerprints. A job compares its pages with its own (digests, SimHash
 * index, URL seen-check, site templates), so content one job saw never makes another job's page a
 * duplicate or holds back its links. The jobs in DEDUP_SHARED_JOBS ("*": all) share one pool, keyed
 * as every fingerprint was before jobs had their own, so a deployment that shares keeps what it has.
 */
export function jobScopeOf(jobId: string, sharedJobs: readonly string[]): string {
  if (sharedJobs.includes('*') || sharedJobs.includes(jobId)) return '';
  // Encoded, so no job id can end where another's key begins nor carry a ':' or a hash tag's brace.
  return `${encodeURIComponent(jobId)}/`;
}

/** The store as one scope sees it: every key behind the scope's prefix; closing it is its owner's job. */
export function scopedFingerprints(store: FingerprintStore, scope: string): FingerprintStore {
  if (scope === '') return store;
  const scoped = (key: string) => scope + key;
  return {
    putIfAbsent: (entries) => store.putIfAbsent(entries.map((entry) => ({ ...entry, key: scoped(entry.key) }))),
    get: (namespace, keys) => store.get(namespace, keys.map(scoped)),
    set: (entries) => store.set(entries.map((entry) => ({ ...entry, key: scoped(entry.key) }))),
    delete: (namespace, keys) => store.delete(namespace, keys.map(scoped)),
    addToSet: (namespace, key, members, ttlMs) => store.addToSet(namespace, scoped(key), members, ttlMs),
    addToSets: (entries) => store.addToSets(entries.map((entry) => ({ ...entry, key: scoped(entry.key) }))),
    members: (namespace, keys) => store.members(namespace, keys.map(scoped)),
    // One approximate set holds every job's keys, each behind its scope: no filter per job to size.
    markSeen: (namespace, entries, ttlMs) =>
      store.markSeen(
        namespace,
        entries.map((entry) => ({ ...entry, key: scoped(entry.key) })),
        ttlMs,
      ),
    // Pacing is the fetchers' and belongs to a site, not a job: passed through unscoped.
    pace: (requests) => store.pace(requests),
    holdPace: (holds) => store.holdPace(holds),
    blockPace: (blocks) => store.blockPace(blocks),
    readFootprint: (namespace, filter) => store.readFootprint(namespace, filter),
    close: async () => {},
  };
}
