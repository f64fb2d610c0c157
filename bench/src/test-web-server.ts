import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { startTestWeb } from '@crawler/testweb';

/**
 * The test web as its own process for benchmarks: like `crawler-testweb`, plus the server's own
 * request log on demand, so every peer is scored by what the server saw, not by what it reports.
 * Stdin: `requests <file>` writes {url: count} there; `reset` clears the log. Each answers one line.
 */
const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'bench' },
    hosts: { type: 'string' },
    'pages-per-host': { type: 'string' },
    seed: { type: 'string' },
    truth: { type: 'string' },
  },
});
const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
const web = await startTestWeb({
  profile: values.profile as 'bench' | 'full',
  hosts: number(values.hosts),
  pagesPerHost: number(values['pages-per-host']),
  seed: number(values.seed),
});
if (values.truth) writeFileSync(values.truth, JSON.stringify(web.groundTruth()));
process.stdout.write(`${JSON.stringify({ hosts: web.hosts, seeds: web.seeds })}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, argument] = line.trim().split(/\s+/, 2);
  if (command === 'requests' && argument) {
    writeFileSync(
      argument,
      JSON.stringify(Object.fromEntries(web.requests.urls().map((url) => [url, web.requests.count(url)]))),
    );
    process.stdout.write(`${JSON.stringify({ requests: argument })}\n`);
  } else if (command === 'reset') {
    web.requests.reset();
    process.stdout.write(`${JSON.stringify({ reset: true })}\n`);
  }
});
const shutDown = () => void web.close().then(() => process.exit(0));
process.once('SIGTERM', shutDown);
process.once('SIGINT', shutDown);
