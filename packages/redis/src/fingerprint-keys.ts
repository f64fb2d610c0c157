import { FingerprintArgumentError } from './redis-errors.js';

/**
 * Key layout: `<prefix><namespace>:<key>`, e.g. `crawler:digest:9f86d081`. No hash tags: every
 * command touches one key, or (multi-key script calls, MGET, DEL) only keys the caller grouped by
 * slot, so keys stay spread over all slots and nodes. A `{...}` inside a caller's key is a hash
 * tag to Redis; it changes only where that key lives, never which key it is.
 */
export function fingerprintKey(prefix: string, namespace: string, key: string): string {
  // A ':' in a namespace would let ("a", "b:c") and ("a:b", "c") name the same key.
  if (!/^[^:{}]+$/.test(namespace)) {
    throw new FingerprintArgumentError(
      `fingerprint namespace ${JSON.stringify(namespace)} must be non-empty and free of ':', '{' and '}'`,
    );
  }
  return `${prefix}${namespace}:${key}`;
}

/** A TTL as Redis PX takes it: whole milliseconds, at least 1 (0 would be an error, not "expired"). */
export function ttlArgument(ttlMs: number): number {
  if (!Number.isFinite(ttlMs))
    throw new FingerprintArgumentError(`fingerprint TTL must be a finite number of milliseconds, got ${ttlMs}`);
  return Math.max(1, Math.ceil(ttlMs));
}

export interface SlotGroup<T> {
  slot: number;
  items: T[];
}

/**
 * Items grouped by cluster slot, each group at most `maxSize` long, so one multi-key command can
 * carry a group (Redis Cluster refuses multi-key commands across slots) without blocking the
 * server for long. Order within a slot is kept.
 */
export function groupBySlot<T>(items: readonly T[], slotOf: (item: T) => number, maxSize: number): SlotGroup<T>[] {
  const bySlot = new Map<number, T[]>();
  for (const item of items) {
    const slot = slotOf(item);
    const group = bySlot.get(slot);
    if (group) group.push(item);
    else bySlot.set(slot, [item]);
  }
  const groups: SlotGroup<T>[] = [];
  for (const [slot, all] of bySlot) {
    for (let start = 0; start < all.length; start += maxSize)
      groups.push({ slot, items: all.slice(start, start + maxSize) });
  }
  return groups;
}
