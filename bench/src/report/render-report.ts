import type { BenchResults } from '../bench-results.js';
import { renderBedSection } from './render-bed.js';
import { renderPeers } from './render-peers.js';
import { renderScale } from './render-scale.js';
import { renderStages } from './render-stages.js';

/** The generated part of docs/BENCHMARKS.md, drawn from one run's results; plots are linked from docs/bench/. */
export function renderReport(results: BenchResults, plots: readonly string[]): string {
  const { machine, workload } = results;
  const image = (file: string, alt: string) => (plots.includes(file) ? `![${alt}](bench/${file})` : '');
  const versions = Object.entries(machine.versions)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
  const skipped =
    results.skipped.length === 0
      ? 'Nothing was skipped.'
      : results.skipped.map((entry) => `- ${entry.what}: ${entry.why}`).join('\n');
  return `## Where we stand: \`npm run bench:all\`

Run of ${results.startedAt.slice(0, 16).replace('T', ' ')} UTC on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, ${machine.os}, Node ${machine.node}, Python ${machine.python}${versions ? `; ${versions}` : ''}. Load average ${machine.loadAverageStart.toFixed(1)} at the start and ${machine.loadAverageEnd.toFixed(1)} at the end: other engineers' tests and benchmarks share these two cores, so every comparison below is between runs made side by side, in alternating order, and CPU seconds are given beside wall-clock rates. Took ${Math.round(results.elapsedSeconds / 60)} of a ${Math.round(results.budgetSeconds / 60)}-minute budget.

**Absolute figures (pages/s, msgs/s, MB) are machine-dependent; the ratios are the result.**

### Peers on the same work

The test web's bench profile in its own process: ${workload.hosts} hosts × ${workload.pagesPerHost.toLocaleString('en-US')} pages of about 4 KB with 20 links each, with a robots.txt that allows everything, so obeying it costs each crawler a robots.txt request per host and a check per URL (that each one fetched it is read from the server's log; the rules themselves are exercised by the full profile's tests). Every crawler starts from the ${workload.hosts} seeds with concurrency ${workload.concurrency} and a cap of ${workload.pageCap.toLocaleString('en-US')} pages, and runs as its own process, metered from outside (/proc: CPU from \`go\` to done, peak resident memory; for 4 processes, the peak of their sum). Pages/s counts successful pages up to the last one. "Truth pages fetched" is the worst round; robots.txt requests and double fetches are what the test web's server saw, not what the crawler reports. Values are medians with the range of the rounds in brackets; a ratio cell is the row's pages/s divided by the column's, taken round by round. "Stack services CPU" is what the Kafka, Elasticsearch, HBase and Redis processes used during a stack crawl; it includes anything else that used the shared stack meanwhile.

${renderPeers(results.peers.specs, results.peers.rounds)}

${image('peers-throughput.svg', 'pages/s per crawler')}
${image('peers-cpu.svg', 'CPU ms per page per crawler')}

${renderBedSection(results)}

### Stages against their physical limit

Each stage of the loop beside the bare tool doing the same work, in the same run.

${renderStages(results.stages)}

${image('stages.svg', 'stage ratios')}

### Scale curve: cost per page from 1k to 1M known URLs

The link base is pre-filled with N known URLs (status fetched, next visit in 30 days, on hosts outside the test web), then the same fixed set of new pages (${results.scaleWorkload.hosts} test web hosts × ${results.scaleWorkload.pagesPerHost.toLocaleString('en-US')} pages, the bench profile) is crawled on it with the peers' settings. CPU is the crawler process's from the end of its setup (opening, and for the file link base loading, the pre-filled link base, shown as "open") to the end of the crawl. One run per point.

${renderScale(results.scale)}

${image('scale-cpu.svg', 'CPU ms per page against known URLs')}
${image('scale-throughput.svg', 'pages/s against known URLs')}

### Not measured in this run

${skipped}

### Commands

\`\`\`sh
npm run bench:all                                   # everything above within a 30-minute budget; rewrites this section
npm run bench:all -- --budget 20m                   # what does not fit is skipped and listed above
npm run bench:all -- --only peers --rounds 5        # one section (peers, bed, stages, scale); results in bench/results/ only
npm run bench:all -- --only bed --bed-rounds 3      # the real-web bed alone, three rounds
npm run bench:all -- --no-docs                      # everything, without rewriting this page
\`\`\`

The real-stack rows and the real-web bed need \`npm run stack:up\` (the bed's nginx is found through \`CRAWLER_STACK_DIR\`, default \`.stack\`); each run gets topics, an index, a table and a key prefix of its own and drops them afterwards. The Scrapy peer lives in \`bench/.venv\`, created by the bench with \`python3 -m venv\` and \`bench/python/requirements.txt\` on first use; wget is Debian's, installed with apt-get when missing and the bench runs as root. Raw figures of this run: [bench/results.json](bench/results.json).`;
}
