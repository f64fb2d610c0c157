import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far V8 lets the old generation grow past what survived its last full collection before
 * it collects again; left to itself V8 allows 1.1 to 4 times, from its own GC speed. A crawl's
 * garbage is its pages and their copies, so the uncapped heap (and the buffers its dead objects
 * still hold) ran at three times the live set: 0 keeps V8's own schedule.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
