export type HoldReason = 'block' | 'budget';

interface Hold {
  until: number;
  reason: HoldReason;
}

const MAX_SITES = 100_000;

/**
 * Sites this process knows it must leave alone for a while: blocked (until the probe) or out of
 * budget (until the window frees a slot). Their URLs are answered at once, without a store round
 * trip; the shared store stays the authority for every other fetcher. Bounded: the least recently
 * held go first, which only costs a round trip for them.
 */
export class SiteHolds {
  private readonly holds = new Map<string, Hold>();

  constructor(private readonly now: () => number = Date.now) {}

  hold(site: string, forMs: number, reason: HoldReason): void {
    this.holds.delete(site);
    this.holds.set(site, { until: this.now() + forMs, reason });
    if (this.holds.size > MAX_SITES) this.holds.delete(this.holds.keys().next().value as string);
  }

  /** The hold on the site, with the time left, or null. */
  heldFor(site: string): { remainingMs: number; reason: HoldReason } | null {
    const hold = this.holds.get(site);
    if (!hold) return null;
    const remainingMs = hold.until - this.now();
    if (remainingMs > 0) return { remainingMs, reason: hold.reason };
    // A block that ran out stays known until its probe settles it; a budget hold is simply over.
    if (hold.reason === 'budget') this.holds.delete(site);
    return null;
  }

  /** Whether the site has a hold for this reason, ran out or not (a block that ran out awaits its probe). */
  has(site: string, reason: HoldReason): boolean {
    return this.holds.get(site)?.reason === reason;
  }

  release(site: string): void {
    this.holds.delete(site);
  }

  /** Sites held for a reason (blocked sites, for the gauge), past holds of blocks included until their probe settles them. */
  count(reason: HoldReason): number {
    let count = 0;
    for (const hold of this.holds.values()) if (hold.reason === reason) count++;
    return count;
  }
}
