import type { LinkRecord } from '@crawler/core';
import { drawByWeight } from './lottery.js';

export type HostOrder = 'breadth-first' | 'priority';

export interface SelectionPolicy {
  /** Share of each traffic class (discovery, freshness, update) when several have work. */
  classShares: Readonly<Record<string, number>>;
  /** Weight of each level, index 0 the highest: lower levels get their share too. */
  levelWeights: readonly number[];
  /** breadth-first: a host offers its shallowest URL of each class; priority: its shallowest of each class and level. */
  hostOrder: HostOrder;
}

export interface RoundInput {
  /** Due records as findDue returns them. */
  candidates: readonly LinkRecord[];
  /** Most records to pick. */
  room: number;
  /** How many records of this queue may be picked in this round (asked once per queue and pick; must not change during the call). */
  hostAllowance(queueKey: string): number;
  /** Whether a record may be handed out (false: skipped, e.g. its job's page budget is spent); called once per record picked. */
  admit(record: LinkRecord): boolean;
  random: () => number;
}

/** A host's next records of one offer line, and where its head sits in the buckets. */
interface Line {
  queueKey: string;
  records: LinkRecord[];
  next: number;
  bucket: Bucket | null;
  slot: number;
}

/** The lines whose head is of one class and level. */
interface Bucket {
  weight: number;
  lines: Line[];
}

interface ClassBuckets {
  share: number;
  discovery: boolean;
  /** Lines in all its buckets. */
  count: number;
  levels: Bucket[];
}

const byId = (a: LinkRecord, b: LinkRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
/** New URLs: breadth-first, levels and then the random rank breaking ties. */
const byDepthLevelRank = (a: LinkRecord, b: LinkRecord) =>
  a.depth - b.depth || a.level - b.level || a.rank - b.rank || byId(a, b);
/** Re-crawls: most overdue first. */
const byDueTime = (a: LinkRecord, b: LinkRecord) => a.nextFetchAt - b.nextFetchAt || a.rank - b.rank || byId(a, b);
const isDiscovery = (record: LinkRecord) => record.trafficClass === 'discovery';
const hasLines = (bucket: { count: number } | Bucket) => ('count' in bucket ? bucket.count : bucket.lines.length) > 0;

/**
 * Picks one round's URLs from the due candidates. Each pick draws a traffic class by its share,
 * then a level by its weight, among those some host offers, then a host, and takes that host's
 * next URL. A host offers the head of each of its lines: per class in breadth-first order (depth,
 * then level, then rank) by default, or per class and level with `priority` host order; re-crawl
 * lines are in due order. Within a level the host is drawn at random for new URLs, and for
 * re-crawls it is the one whose head is most overdue: on the test web's rounds a random order there
 * found a tenth fewer changes per fetch (docs/SCHEDULING.md). Per-host allowances cap what one host gets.
 */
export function selectRound(input: RoundInput, policy: SelectionPolicy): LinkRecord[] {
  const classes = new Map<string, ClassBuckets>();
  const linesByHost = new Map<string, Line[]>();
  const levelWeight = (level: number) => policy.levelWeights[level] ?? policy.levelWeights.at(-1) ?? 1;

  const place = (line: Line) => {
    const head = line.records[line.next];
    if (!head) return;
    let entry = classes.get(head.trafficClass);
    if (!entry)
      classes.set(
        head.trafficClass,
        (entry = {
          share: policy.classShares[head.trafficClass] ?? 0,
          discovery: isDiscovery(head),
          count: 0,
          levels: [],
        }),
      );
    const bucket = (entry.levels[head.level] ??= { weight: levelWeight(head.level), lines: [] });
    line.bucket = bucket;
    line.slot = bucket.lines.push(line) - 1;
    entry.count++;
  };
  const unplace = (line: Line) => {
    const bucket = line.bucket;
    if (!bucket) return;
    const last = bucket.lines.pop()!;
    if (last !== line) {
      bucket.lines[line.slot] = last;
      last.slot = line.slot;
    }
    line.bucket = null;
    classes.get(line.records[line.next]!.trafficClass)!.count--;
  };

  for (const [queueKey, records] of groupBy(input.candidates, (record) => record.queueKey)) {
    if (input.hostAllowance(queueKey) <= 0) continue;
    const lineKey =
      policy.hostOrder === 'priority'
        ? (record: LinkRecord) => `${record.trafficClass}/${record.level}`
        : (record: LinkRecord) => record.trafficClass;
    const lines = [...groupBy(records, lineKey).values()].map((group): Line => ({
      queueKey,
      records: group.sort(isDiscovery(group[0]!) ? byDepthLevelRank : byDueTime),
      next: 0,
      bucket: null,
      slot: -1,
    }));
    linesByHost.set(queueKey, lines);
    for (const line of lines) place(line);
  }

  const classList = () => [...classes.values()];
  let entries = classList();
  const taken = new Map<string, number>();
  const out: LinkRecord[] = [];
  while (out.length < input.room) {
    if (entries.length !== classes.size) entries = classList();
    const entry = drawByWeight(entries, hasLines, (item) => item.share, input.random);
    if (!entry) break;
    const bucket = drawByWeight(
      entry.levels,
      (item) => item !== undefined && hasLines(item),
      (item) => item.weight,
      input.random,
    )!;
    const line = entry.discovery
      ? bucket.lines[Math.floor(input.random() * bucket.lines.length)]!
      : mostOverdue(bucket.lines);
    const record = line.records[line.next]!;
    unplace(line);
    line.next++;
    if (!input.admit(record)) {
      place(line);
      continue;
    }
    out.push(record);
    const count = (taken.get(line.queueKey) ?? 0) + 1;
    taken.set(line.queueKey, count);
    if (count >= input.hostAllowance(line.queueKey))
      for (const other of linesByHost.get(line.queueKey)!) unplace(other);
    else place(line);
  }
  return out;
}

/** A linear scan: a bucket holds one line per host with due re-crawls of that level, and a round picks at most `room` times. */
function mostOverdue(lines: readonly Line[]): Line {
  let best = lines[0]!;
  for (const line of lines) if (byDueTime(line.records[line.next]!, best.records[best.next]!) < 0) best = line;
  return best;
}

function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group) group.push(item);
    else groups.set(name, [item]);
  }
  return groups;
}
