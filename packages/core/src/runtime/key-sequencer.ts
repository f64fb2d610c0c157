/**
 * Runs work for one key after the work for that key begun before it, in arrival order; other keys
 * run alongside. Holds an entry only while a key has work pending.
 */
export class KeySequencer {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string | null, work: () => Promise<T>): Promise<T> {
    if (key === null) return work();
    const before = this.tails.get(key);
    let done!: () => void;
    const tail = new Promise<void>((resolve) => (done = resolve));
    this.tails.set(key, tail);
    try {
      if (before) await before;
      return await work();
    } finally {
      done();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work running or waiting. */
  get size(): number {
    return this.tails.size;
  }
}
