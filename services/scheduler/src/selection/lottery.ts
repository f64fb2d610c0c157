/**
 * One of the items with work, drawn with probability proportional to its weight (lottery
 * scheduling): over many draws each gets its share, and an item of weight w among total W goes
 * without a draw for n draws with probability (1 - w/W)^n only, so nothing with a positive weight
 * starves. When every item with work weighs 0, one of them is drawn uniformly (work-conserving).
 * Returns undefined when no item has work. Allocation-free: it runs once per URL handed out.
 */
export function drawByWeight<T>(
  items: readonly T[],
  hasWork: (item: T) => boolean,
  weight: (item: T) => number,
  random: () => number,
): T | undefined {
  let total = 0;
  let open = 0;
  for (const item of items) {
    if (!hasWork(item)) continue;
    open++;
    total += Math.max(0, weight(item));
  }
  if (open === 0) return undefined;
  const uniform = total <= 0;
  let ticket = random() * (uniform ? open : total);
  let last: T | undefined;
  for (const item of items) {
    if (!hasWork(item)) continue;
    last = item;
    ticket -= uniform ? 1 : Math.max(0, weight(item));
    if (ticket < 0) return item;
  }
  return last;
}
