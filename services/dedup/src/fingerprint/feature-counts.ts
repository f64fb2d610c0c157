/**
 * Weights keyed by 32-bit feature hashes: an open-addressing table over typed arrays. A Map keyed by
 * numbers above 2^30 boxes every key, and counting a page's words and word pairs that way cost more
 * than hashing them.
 */
export class FeatureCounts {
  private keys: Uint32Array;
  private weights: Float64Array;
  private used: Uint8Array;
  /** Slots in first-insertion order, so iteration needs no scan of empty slots. */
  private slots: Int32Array;
  private count = 0;
  private mask: number;

  constructor(expected = 16) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.keys = new Uint32Array(capacity);
    this.weights = new Float64Array(capacity);
    this.used = new Uint8Array(capacity);
    this.slots = new Int32Array(capacity >>> 1);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  add(hash: number, weight = 1): void {
    const key = hash >>> 0;
    let slot = (Math.imul(key, 0x9e3779b1) >>> 0) & this.mask;
    while (this.used[slot] === 1) {
      if (this.keys[slot] === key) {
        this.weights[slot]! += weight;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
    this.used[slot] = 1;
    this.keys[slot] = key;
    this.weights[slot] = weight;
    this.slots[this.count++] = slot;
    if (this.count === this.slots.length) this.grow();
  }

  /** Every weight replaced by its square (see text-fingerprint.ts for why). */
  square(): void {
    for (let i = 0; i < this.count; i++) {
      const slot = this.slots[i]!;
      this.weights[slot] = this.weights[slot]! * this.weights[slot]!;
    }
  }

  /** Calls `visit` with each hash (unsigned) and its weight. */
  forEach(visit: (hash: number, weight: number) => void): void {
    for (let i = 0; i < this.count; i++) {
      const slot = this.slots[i]!;
      visit(this.keys[slot]!, this.weights[slot]!);
    }
  }

  private grow(): void {
    const { keys, weights, slots, count } = this;
    const capacity = keys.length * 2;
    this.keys = new Uint32Array(capacity);
    this.weights = new Float64Array(capacity);
    this.used = new Uint8Array(capacity);
    this.slots = new Int32Array(capacity >>> 1);
    this.mask = capacity - 1;
    this.count = 0;
    for (let i = 0; i < count; i++) this.add(keys[slots[i]!]!, weights[slots[i]!]!);
  }
}
