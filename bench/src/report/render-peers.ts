import type { PeerSpec } from '../bench-results.js';
import { summarizePeers, type PeerRound, type PeerSummary } from '../peer-summary.js';
import { formatCount, formatFixed, formatRatio, formatSpread, markdownTable } from './format.js';

/** The targets for embedded mode: pages/s ratios it should reach. */
export const EMBEDDED_TARGETS = [
  { against: 'raw', atLeast: 0.5, label: 'at least half the raw limit' },
  { against: 'crawlee', atLeast: 10, label: 'at least 10× Crawlee' },
  { against: 'scrapy', atLeast: 10, label: 'at least 10× Scrapy' },
];

const SHORT: Record<string, string> = {
  raw: 'raw',
  floor: 'floor',
  embedded: 'embedded',
  stack: 'stack, 1 process',
  services: 'stack, 4 processes',
  crawlee: 'Crawlee',
  scrapy: 'Scrapy',
};

/** The peers table (one row per crawler, ratio columns to the limit and to every other peer), the targets and the details. */
export function renderPeers(specs: readonly PeerSpec[], rounds: readonly PeerRound[]): string {
  const order = specs.map((spec) => spec.id);
  const summaries = summarizePeers(order, rounds);
  const label = (id: string) => specs.find((spec) => spec.id === id)?.label ?? id;
  const main = markdownTable(
    [
      'crawler',
      'pages/s',
      'CPU s / 1,000 pages',
      'peak RSS MB',
      'truth pages fetched',
      ...summaries.map((summary) => `÷ ${SHORT[summary.peer] ?? summary.peer}`),
    ],
    summaries.map((summary) => [
      summary.peer === 'embedded' ? `**${label(summary.peer)}**` : label(summary.peer),
      formatSpread(summary.pagesPerSecond),
      formatSpread(summary.cpuSecondsPer1000, formatFixed(2)),
      formatSpread(summary.peakRssMb),
      `${formatCount(summary.fetchedMin)} / ${formatCount(summary.truthPages)}`,
      ...summaries.map((other) =>
        other.peer === summary.peer
          ? '1'
          : summary.ratios[other.peer]
            ? formatSpread(summary.ratios[other.peer]!, formatRatio)
            : '',
      ),
    ]),
  );
  const details = markdownTable(
    [
      'crawler',
      'rounds',
      'seconds to done',
      'ended by',
      'robots.txt fetched',
      'pages requested twice',
      'pages outside the truth',
      'stack services CPU s / 1,000 pages',
      'load average after',
    ],
    summaries.map((summary) => {
      const own = rounds.filter((round) => round.peer === summary.peer);
      return [
        label(summary.peer),
        String(summary.rounds),
        formatSpread(summary.seconds, formatFixed(1)),
        // A crawl cut by the time limit still counts its pages up to the last one; the table says it was cut.
        [
          ...new Set(
            own.map((round) => (typeof round.notes?.stopReason === 'string' ? round.notes.stopReason : 'its own end')),
          ),
        ].join(', '),
        `${summary.robotsOriginsMin} / ${summary.origins} hosts`,
        formatCount(summary.requestedTwiceMax),
        formatCount(summary.outsideMax),
        summary.stackCpuSecondsPer1000 ? formatSpread(summary.stackCpuSecondsPer1000, formatFixed(2)) : '',
        own.map((round) => round.loadAverage.toFixed(1)).join(', '),
      ];
    }),
  );
  const how = specs.map((spec) => `- **${spec.label}**: ${spec.how}. Robots: ${spec.robots}.`).join('\n');
  return [main, '', renderTargets(summaries), '', details, '', how].join('\n');
}

export function renderTargets(summaries: readonly PeerSummary[]): string {
  const embedded = summaries.find((summary) => summary.peer === 'embedded');
  if (!embedded) return 'Targets: the embedded crawl did not run.';
  // What bare tools doing the same work reach tells a target out of reach on this machine from one our code misses.
  const floor = summaries.find((summary) => summary.peer === 'floor');
  const parts = EMBEDDED_TARGETS.map((target) => {
    const ratio = embedded.ratios[target.against];
    if (!ratio) return `${target.label}: not measured`;
    const floorRatio = floor?.ratios[target.against];
    const reach = floorRatio ? `; the floor reaches ${formatRatio(floorRatio.median)}` : '';
    return `${target.label}: **${formatRatio(ratio.median)}** (${ratio.median >= target.atLeast ? 'met' : 'not met'}${reach})`;
  });
  return `Targets for embedded mode, pages/s ratio (median of the per-round ratios): ${parts.join('; ')}.`;
}
