import { createFingerprintStore } from '@crawler/adapters';
import { loadRuntimeConfig, silentLogger, type FootprintWindow } from '@crawler/core';
import { FOOTPRINT_NAMESPACE } from '@crawler/fetcher';
import { readFootprintFile } from '../ops/footprint-file.js';
import { formatFootprint, summarizeFootprint } from '../ops/footprint-report.js';
import { reach } from '../ops/stack-access.js';
import { parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';

export const footprintHelp = `Usage: crawler footprint [options]

What the crawler looks like in the sites' own access logs, counted the way sites count crawlers:
per site and per egress network of ours (IPv4 /24, IPv6 /48), in 10-minute windows: requests,
pages, pages per minute, mean and shortest interval between page requests, share of attachment
requests, total pages. Every fetcher counts each request it sends in the shared store (Redis:
CRAWLER_FINGERPRINTS, REDIS_*); an embedded crawl leaves its footprint in its output folder.
Windows of the last 48 hours.

  --out DIR             the output folder of an embedded crawl (crawler run --out DIR)
  --site SITE           one site only: a host (host:port) or, with FETCHER_SITE_MODE=domain, a domain
  --json                the windows, per-site and per-network totals as one JSON object
  -h, --help            this help

Exit code 0, or 1 when the store cannot be reached.`;

export const flagSpec = {
  out: { type: 'string' },
  site: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export async function footprintCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseFlags('footprint', argv, flagSpec);
  if (values.help) {
    process.stdout.write(`${footprintHelp}\n`);
    return 0;
  }
  const windows =
    values.out !== undefined
      ? readFootprintFile(values.out).filter((window) => values.site === undefined || window.site === values.site)
      : await readShared(values.site, env);
  const report = summarizeFootprint(windows);
  process.stdout.write(values.json ? `${JSON.stringify(report)}\n` : formatFootprint(report));
  return 0;
}

async function readShared(site: string | undefined, env: NodeJS.ProcessEnv): Promise<FootprintWindow[]> {
  const runtime = loadRuntimeConfig({ env });
  if (runtime.fingerprints === 'memory')
    throw new UsageError(
      'crawler footprint: CRAWLER_FINGERPRINTS=memory keeps the footprint inside the crawling process; read an embedded crawl with --out DIR, or a distributed one with CRAWLER_FINGERPRINTS=redis and REDIS_URL',
    );
  const store = await createFingerprintStore(runtime, silentLogger(), { env });
  try {
    return await reach('the shared store (REDIS_URL or REDIS_CLUSTER_NODES)', () =>
      store.readFootprint(FOOTPRINT_NAMESPACE, site === undefined ? {} : { site }),
    );
  } finally {
    await store.close();
  }
}
