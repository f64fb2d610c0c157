import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { PeerConfig, PeerDone } from './peer-protocol.js';

export interface CrawlOutcome {
  /** Successful page fetches the crawler counted. */
  pages: number;
  /** The URLs behind `pages`, when the runner lists them (for scoring against the truth). */
  okUrls?: string[];
  /** The URLs it kept, when it keeps pages its own way (see PeerConfig.storedFile). */
  storedUrls?: string[];
  seconds: number;
  lastPageSeconds: number;
  notes?: Record<string, unknown>;
  child?: PeerDone['child'];
}

/**
 * The child side of the peer protocol for Node runners: reads the config named on the command
 * line, sets up, announces `ready`, crawls on `go`, reports `done`, exits on `exit`.
 */
export async function runPeer(setup: (config: PeerConfig) => Promise<() => Promise<CrawlOutcome>>): Promise<void> {
  const config = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as PeerConfig;
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const crawl = await setup(config);
  process.stdout.write(`${JSON.stringify({ event: 'ready' })}\n`);
  await lines.next();
  const outcome = await crawl();
  if (outcome.okUrls) writeFileSync(config.okFile, outcome.okUrls.join('\n'));
  if (outcome.storedUrls) writeFileSync(config.storedFile, outcome.storedUrls.join('\n'));
  const done: PeerDone = {
    event: 'done',
    pages: outcome.pages,
    seconds: outcome.seconds,
    lastPageSeconds: outcome.lastPageSeconds,
    notes: outcome.notes,
    ...(outcome.child ? { child: outcome.child } : {}),
  };
  process.stdout.write(`${JSON.stringify(done)}\n`);
  await lines.next();
  process.exit(0);
}
