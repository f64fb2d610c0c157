/** A seeded pseudo-random source in [0, 1) (an LCG): a fuzz test that fails repeats with the same inputs. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/** `length` picks from `alphabet` (its characters, or its strings), drawn with `random`. */
export function randomText(random: () => number, alphabet: string | readonly string[], length: number): string {
  const symbols = typeof alphabet === 'string' ? [...alphabet] : alphabet;
  return Array.from({ length }, () => symbols[Math.floor(random() * symbols.length)]).join('');
}
