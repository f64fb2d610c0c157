import { unitHash } from '../seeded-random.js';

// Whether content changes in a round is a pure function of (seed, key, round), so the server and
// the ground truth agree without sharing state.
export function changesInRound(seed: number, key: string, changeRate: number, round: number): boolean {
  return round > 0 && changeRate > 0 && unitHash(seed, 'change', key, round) < changeRate;
}

/** The round in which the content last changed (0 if never). */
export function lastChangedRound(seed: number, key: string, changeRate: number, round: number): number {
  if (changeRate <= 0) return 0;
  for (let r = round; r > 0; r--) {
    if (changesInRound(seed, key, changeRate, r)) return r;
  }
  return 0;
}
