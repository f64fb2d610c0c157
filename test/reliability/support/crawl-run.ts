import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  catalogGroups,
  prefixTopics,
  silentLogger,
  Topics,
  type Bus,
  type FingerprintStore,
  type LinkBase,
  type LinkBaseStats,
  type PageStore,
} from '@crawler/core';
import { createElasticsearchLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { createHbasePageStore, loadHbaseConfig } from '@crawler/hbase';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { createRedisFingerprintStore, loadRedisConfig } from '@crawler/redis';
import { createScratchDir, removeScratchDir } from '../../support/scratch-dir.js';
import {
  startServiceProcess,
  waitForFetcherGroup,
  waitUntilReady,
  type ServiceProcess,
} from '../../support/service-processes.js';
import { TEST_WEB_SERVICE_ENV } from '../../support/test-web-service-env.js';
import { stackAddresses, type StackAddresses } from './stack-env.js';
import { dropNames, freshNames, type StackNames } from './stack-names.js';

export type ServiceName = 'scheduler' | 'fetcher' | 'linkextract' | 'dedup';

/**
 * Settings of every reliability crawl: the test web on loopback, fast retries, and the time limits
 * a crash test waits out kept short: a killed member leaves its group after 10 s, a killed
 * scheduler's leases run out after 15 s, and no URL waits for its host longer than 5 s (under the lease).
 */
export const RELIABILITY_ENV: Record<string, string> = {
  ...TEST_WEB_SERVICE_ENV,
  FETCHER_MAX_QUEUE_WAIT_MS: '5000',
  SCHEDULER_LEASE_MS: '15000',
  // With the lease cut from 10 min to 15 s, the default 3 expiries (45 s) no longer outlast a 30 s
  // store outage plus its restart on a loaded machine (CI saw 74 URLs marked failed); 10 restores the margin.
  SCHEDULER_MAX_LEASE_EXPIRIES: '10',
  KAFKA_SESSION_TIMEOUT_MS: '10000',
  LOG_LEVEL: 'info',
};

export interface CrawlRunOptions {
  label: string;
  /** The crawl job file's content (seeds, maxDepth, scope...). */
  job: Record<string, unknown>;
  /** Settings on top of RELIABILITY_ENV, for every service. */
  env?: Record<string, string>;
  fetchers?: number;
  /** Scheduler processes: one is named `scheduler`, more are `scheduler-1`, `scheduler-2`... */
  schedulers?: number;
  /** Addresses the services get instead of the stack's (a proxy in front of a store). */
  serviceAddresses?: Partial<StackAddresses>;
}

/** A crawl of the four services as OS processes on the stack, with its own topics, index, table and keys. */
export class CrawlRun {
  readonly names: StackNames;
  readonly stack: StackAddresses;
  readonly env: Record<string, string>;
  readonly logDir: string;
  readonly linkbase: LinkBase;
  readonly pages: PageStore;
  readonly fingerprints: FingerprintStore;
  readonly bus: Bus;
  private readonly processes = new Map<string, { service: ServiceName; process: ServiceProcess; generation: number }>();

  private constructor(
    options: CrawlRunOptions,
    stack: StackAddresses,
    linkbase: LinkBase,
    pages: PageStore,
    fingerprints: FingerprintStore,
    bus: Bus,
    names: StackNames,
    logDir: string,
  ) {
    this.stack = stack;
    this.names = names;
    this.logDir = logDir;
    const jobFile = join(logDir, 'job.json');
    writeFileSync(jobFile, JSON.stringify({ id: names.CRAWLER_TOPIC_PREFIX.slice(0, -1), ...options.job }));
    this.env = {
      ...stack,
      ...options.serviceAddresses,
      ...names,
      ...RELIABILITY_ENV,
      ...options.env,
      CRAWL_JOB_FILE: jobFile,
    };
    this.linkbase = linkbase;
    this.pages = pages;
    this.fingerprints = fingerprints;
    this.bus = bus;
  }

  /** Starts dedup, linkextract and the fetchers, then the schedulers once they are ready (as a rollout does). */
  static async start(options: CrawlRunOptions): Promise<CrawlRun> {
    const stack = stackAddresses();
    const names = freshNames(options.label);
    const env = { ...stack, ...names };
    const logger = silentLogger();
    const logDir = createScratchDir(`reliability-${options.label}`);
    const run = new CrawlRun(
      options,
      stack,
      await createElasticsearchLinkBase(loadElasticsearchConfig({ env }), logger),
      await createHbasePageStore(loadHbaseConfig({ env }), logger),
      createRedisFingerprintStore(loadRedisConfig({ env }), logger),
      prefixTopics(createKafkaBus(loadKafkaConfig({ env }), logger), names.CRAWLER_TOPIC_PREFIX),
      names,
      logDir,
    );
    try {
      const consumers: [ServiceName, string][] = [
        ['dedup', 'dedup'],
        ['linkextract', 'linkextract'],
      ];
      for (let i = 1; i <= (options.fetchers ?? 2); i++) consumers.push(['fetcher', `fetcher-${i}`]);
      await Promise.all(consumers.map(([service, name]) => run.launch(service, name)));
      await waitForFetcherGroup(run.bus, options.fetchers ?? 2);
      const schedulers = options.schedulers ?? 1;
      const names =
        schedulers === 1 ? ['scheduler'] : Array.from({ length: schedulers }, (_, i) => `scheduler-${i + 1}`);
      await Promise.all(names.map((name) => run.launch('scheduler', name)));
    } catch (error) {
      await run.close();
      throw error;
    }
    return run;
  }

  /** The live process of a name (fetcher-1, scheduler...). */
  process(name: string): ServiceProcess {
    const entry = this.processes.get(name);
    if (!entry) throw new Error(`no service named ${name}`);
    return entry.process;
  }

  get processNames(): string[] {
    return [...this.processes.keys()];
  }

  /** kill -9: no drain, no commit, no leaving the group. */
  async kill(name: string): Promise<void> {
    const { process: dying } = this.processes.get(name)!;
    dying.child.kill('SIGKILL');
    await dying.exited;
  }

  /** A new process in place of a dead one, ready when this resolves. */
  async restart(name: string): Promise<ServiceProcess> {
    const entry = this.processes.get(name)!;
    if (entry.process.child.exitCode === null && entry.process.child.signalCode === null)
      throw new Error(`${name} still runs`);
    return this.launch(entry.service, name, entry.generation + 1);
  }

  private async launch(service: ServiceName, name: string, generation = 1): Promise<ServiceProcess> {
    const started = await startServiceProcess(
      service,
      generation === 1 ? name : `${name}.${generation}`,
      this.env,
      this.logDir,
    );
    this.processes.set(name, { service, process: started, generation });
    await waitUntilReady(started);
    return started;
  }

  async stats(): Promise<LinkBaseStats> {
    await this.linkbase.flush();
    return this.linkbase.stats(Date.now());
  }

  /** Polls `check` every 500 ms until it holds; fails with `what` and the scheduler's log after `timeoutMs`. */
  async waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        if (await check()) return;
      } catch {
        // A store may be down on purpose: ask again.
      }
      if (Date.now() > deadline)
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}; scheduler log:\n${this.schedulerLogTail()}`,
        );
      await sleep(500);
    }
  }

  /** The last lines of every live scheduler's log. */
  private schedulerLogTail(): string {
    return [...this.processes]
      .filter(([, entry]) => entry.service === 'scheduler')
      .map(([name, entry]) => `${name}:\n${entry.process.logTail(10)}`)
      .join('\n');
  }

  /** Lag of every group of the crawl (or of the catalog groups named), summed. */
  async lag(groups?: readonly string[]): Promise<number> {
    const wanted = groups && new Set(groups);
    let total = 0;
    for (const group of catalogGroups().filter((entry) => !wanted || wanted.has(entry.group))) {
      for (const lag of await this.bus.lag(group.group, group.topics)) total += Math.max(lag.lag, 0);
    }
    return total;
  }

  /** Records on this crawl's dead-letter topic. */
  async deadLetters(): Promise<number> {
    const ends = await this.bus.lag('reliability-probe', [Topics.dlq]);
    return ends.reduce((sum, partition) => sum + partition.end, 0);
  }

  /** Nothing pending, leased or unread, three times in a row a second apart: the crawl is over. */
  async settled(timeoutMs: number): Promise<void> {
    let quiet = 0;
    await this.waitFor(
      'the crawl to settle',
      async () => {
        const stats = await this.stats();
        const pending = (stats.byStatus.queued ?? 0) + (stats.byStatus.retry ?? 0);
        const idle = stats.total > 0 && pending === 0 && stats.leased === 0 && (await this.lag()) === 0;
        quiet = idle ? quiet + 1 : 0;
        return quiet >= 3;
      },
      timeoutMs,
    );
  }

  /** Stops every live process (SIGTERM), closes the clients and drops the crawl's topics, index, table and keys. */
  async close(): Promise<void> {
    await Promise.all([...this.processes.values()].map((entry) => entry.process.stop()));
    await Promise.allSettled([this.bus.close(), this.linkbase.close(), this.pages.close(), this.fingerprints.close()]);
    // KEEP_RELIABILITY_LOGS keeps a crawl's logs, topics, index, table and keys to look into.
    if (process.env.KEEP_RELIABILITY_LOGS) {
      process.stderr.write(`kept: logs in ${this.logDir}, names ${JSON.stringify(this.names)}\n`);
      return;
    }
    for (const problem of await dropNames(this.stack, this.names))
      process.stderr.write(`cleanup of ${this.names.CRAWLER_TOPIC_PREFIX}*: ${problem}\n`);
    removeScratchDir(this.logDir);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
