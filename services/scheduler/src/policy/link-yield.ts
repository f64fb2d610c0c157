/**
 * A page's link yield is the new URLs its fetches found, as an exponentially weighted average per
 * fetch: each fetch of its content decays it, each new URL it led to adds to it. The two arrive on
 * different topics in either order; the average is the same either way up to one step's weight.
 */
export const YIELD_WEIGHT = 0.3;

export function decayYield(linkYield: number): number {
  return linkYield * (1 - YIELD_WEIGHT);
}

export function addYield(linkYield: number, newUrls: number): number {
  return linkYield + YIELD_WEIGHT * newUrls;
}
