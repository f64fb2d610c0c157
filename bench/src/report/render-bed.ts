import type { BenchResults } from '../bench-results.js';
import type { BedTally, BedRound } from '../realweb/bed-tally.js';
import type { BedSection } from '../realweb/bed-suite.js';
import { spread } from '../stats.js';
import { formatCount, formatFixed, formatSpread, markdownTable } from './format.js';
import { renderCpuProfile } from './render-cpu-profile.js';

/** Counts where more is better: a crawler's worst round has the fewest. */
const MORE_IS_BETTER = new Set<keyof BedTally>(['truthPagesRequested', 'stored']);

/** The worst value of each count over a crawler's rounds: correctness must hold every time. */
export function worstTally(rounds: readonly BedRound[]): Omit<BedTally, 'examples'> {
  const { examples: _examples, ...first } = rounds[0]!.tally;
  const worst = { ...first };
  for (const round of rounds.slice(1))
    for (const key of Object.keys(worst) as (keyof typeof worst)[]) {
      const value = round.tally[key];
      worst[key] = MORE_IS_BETTER.has(key) ? Math.min(worst[key], value) : Math.max(worst[key], value);
    }
  return worst;
}

const EXAMPLE_LABELS: Record<string, string> = {
  notRequested: 'not requested',
  requestedTwice: 'requested twice',
  disallowedRequested: 'disallowed but requested',
  outsideTruthRequested: 'requested outside the truth',
  notStored: 'not stored',
  storedTwice: 'stored twice',
  groupsStoredTwice: 'duplicate group stored twice',
  falseDuplicates: 'false duplicate',
};

/**
 * The real-web bed's tables from one run: speed and cost beside the pages kept right, then the
 * requests and stores against bed.py's truth, the examples behind each mistake, and how the
 * crawlers not described above run.
 */
export function renderBed(bed: BedSection, describedAbove: readonly string[]): string {
  const byPeer = bed.specs
    .map((spec) => ({ spec, rounds: bed.rounds.filter((round) => round.peer === spec.id) }))
    .filter((entry) => entry.rounds.length > 0);
  const label = (id: string, text: string) => (id === 'embedded' ? `**${text}**` : text);
  const of = (value: number, total: number) => `${formatCount(value)} / ${formatCount(total)}`;
  const speed = markdownTable(
    [
      'crawler',
      'requests in flight',
      'pages/s',
      'CPU ms / page',
      'stack services CPU ms / page',
      'peak RSS MB',
      'seconds to done',
      'truth pages stored',
    ],
    byPeer.map(({ spec, rounds }) => {
      const stack = rounds.flatMap((round) => (round.stackCpuMsPerPage === undefined ? [] : [round.stackCpuMsPerPage]));
      return [
        label(spec.id, spec.label),
        spec.id === 'wget' ? '1' : String(bed.concurrency),
        formatSpread(spread(rounds.map((round) => round.pagesPerSecond))),
        formatSpread(spread(rounds.map((round) => round.cpuMsPerPage)), formatFixed(2)),
        stack.length > 0 ? formatSpread(spread(stack), formatFixed(2)) : '',
        formatSpread(spread(rounds.map((round) => round.peakRssMb))),
        formatSpread(spread(rounds.map((round) => round.seconds)), formatFixed(1)),
        of(worstTally(rounds).stored, bed.truth.pages),
      ];
    }),
  );
  const correctness = markdownTable(
    [
      'crawler',
      'requests',
      'truth pages requested',
      'pages requested twice',
      'disallowed requested',
      'requests outside the truth',
      'pages stored twice',
      'duplicate groups stored twice',
      'pages marked duplicate',
      'false duplicates',
    ],
    byPeer.map(({ spec, rounds }) => {
      const worst = worstTally(rounds);
      return [
        label(spec.id, spec.label),
        formatCount(worst.requests),
        of(worst.truthPagesRequested, bed.truth.pages),
        formatCount(worst.requestedTwice),
        formatCount(worst.disallowedRequested),
        formatCount(worst.outsideTruthRequested),
        formatCount(worst.storedTwice),
        of(worst.groupsStoredTwice, bed.truth.duplicateGroups),
        formatCount(worst.markedDuplicate),
        formatCount(worst.falseDuplicates),
      ];
    }),
  );
  const examples = byPeer
    .flatMap(({ spec, rounds }) => {
      const last = rounds.at(-1)!.tally.examples;
      const kinds = Object.entries(last).map(
        ([kind, urls]) => `${EXAMPLE_LABELS[kind] ?? kind}: ${urls.map((url) => `\`${url}\``).join(', ')}`,
      );
      return kinds.length > 0 ? [`- ${spec.label}: ${kinds.join('; ')}.`] : [];
    })
    .join('\n');
  const how = bed.specs
    .filter((spec) => !describedAbove.includes(spec.id))
    .map((spec) => `- **${spec.label}**: ${spec.how}. Robots: ${spec.robots}.`)
    .join('\n');
  return [
    speed,
    '',
    correctness,
    '',
    examples ? `The first few URLs behind each mistake (last round):\n\n${examples}` : 'No crawler made a mistake.',
    ...(how ? ['', how] : []),
  ].join('\n');
}

/** The bed's part of the generated page: what the bed is, how each column is measured, the tables and the profile. */
export function renderBedSection(results: BenchResults): string {
  const { bed } = results;
  if (!bed) return '### Peers on the real-web bed\n\nNot run (see "Not measured in this run").';
  const sites = bed.truth.sites
    .map((site) => `${SITE_NAMES[site.name] ?? site.name} ${formatCount(site.pages)}`)
    .join(', ');
  const rounds = new Set(bed.rounds.map((round) => round.round)).size;
  const profile = bed.profile
    ? `#### Where the time goes: the embedded crawl of the bed under \`node --cpu-prof\`

One more embedded crawl of the bed with the row's settings, under \`node --cpu-prof\`: ${bed.profile.cpuSeconds.toFixed(1)} CPU s in the process (/proc, every thread) over a ${bed.profile.seconds.toFixed(1)} s crawl. The WARC encoder thread starts without its parent's flags, so the profile is the main thread's, over its whole life (start-up included). On a loaded machine a sample also counts time spent waiting for a core, so the shares are the result, not the milliseconds. \`node bench/dist/realweb/summarize-cpu-profile.js DIR\` summarizes any \`--cpu-prof\` folder the same way.

${renderCpuProfile(bed.profile.summary)}`
    : '';
  return `### Peers on the real-web bed

The real-web bed ([test/realweb/README.md](../test/realweb/README.md)): Debian's HTML documentation of Python, PostgreSQL and Git as the packages install it, served by nginx on loopback, one port per site, with a robots.txt that closes Python's \`/c-api/\`. Its truth comes from \`test/realweb/bed.py\`, written apart from the crawler with Python's standard library: walked over the files from each index by \`a[href]\` with Python's own HTML and robots.txt parsers, it lists ${formatCount(bed.truth.pages)} pages (${sites}), ${formatCount(bed.truth.disallowedLinks)} linked URLs robots.txt disallows and ${bed.truth.duplicateGroups} groups of byte-identical pages (\`/\` and \`/index.html\`, Git's \`git.html\`). Every crawler starts from the three index pages with ${bed.concurrency} requests in flight (as many on one site as it allows; wget makes one at a time) and no delay, obeys robots.txt, sends a User-Agent of its own, and runs as its own process, metered from outside as above. ${rounds === 1 ? 'One round' : `${rounds} rounds in rotated order; speed is the median with the range, each count the worst round`}.

How each column is measured:

- **pages/s**: truth pages requested (below) divided by the seconds from \`go\` to the crawler's last page. **CPU ms / page**: the crawler's CPU time (user + system, from /proc, \`go\` to done) over the same pages; for wget its own CPU, which the runner that started and waited for it reads from its children's time. **Stack services CPU**: the Kafka, Elasticsearch, HBase and Redis processes meanwhile. **Peak RSS**: the process's high-water mark (VmHWM); wget's sampled every 50 ms.
- **requests**, **truth pages requested**, **pages requested twice**, **disallowed requested**, **requests outside the truth**: nginx's access log, the lines with the crawl's User-Agent, against the truth. robots.txt, the truth's broken links, its links to non-HTML files and folder redirects are requests but not outside the truth. Crawlee sends its robots.txt requests with got-scraping's generated browser User-Agent, so they are missing from its count.
- **truth pages stored**: the truth pages the crawler kept, the page itself or a member of its exact-duplicate group. This crawler: WARC response records (embedded) or HBase row versions (stack). wget: its files on disk (one per URL path: where two URLs write one file, the later download replaces the earlier). Crawlee and Scrapy: the pages their handler received, as if each yielded an item (fragments dropped: they never reach the server). The floor: the first page of each SHA-256 digest.
- **pages stored twice**: truth pages kept more than once (WARC records, HBase versions, items). **Duplicate groups stored twice**: exact-duplicate groups of which more than one member was kept, a duplicate not recognised.
- **pages marked duplicate** and **false duplicates**: this crawler's link base (its folder, or Elasticsearch): truth pages marked duplicate, and of those the ones whose text the page they are said to copy does not share (not byte-identical, under 0.9 Jaccard of 5-word shingles of the two content areas). A crawler without a link base marks nothing: what it drops shows as pages not stored, what it keeps twice as pages or groups stored twice.

${renderBed(
  bed,
  results.peers.specs.map((spec) => spec.id),
)}

${profile}`.trimEnd();
}

const SITE_NAMES: Record<string, string> = { python: 'Python', postgres: 'PostgreSQL', git: 'Git' };
