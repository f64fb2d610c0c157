import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanUpOnSignals, registerCleanup } from './abort-cleanup.js';
import { cpuSecondsOf, reapedChildrenCpuSeconds } from './proc-stats.js';
import { withFreshStack } from './stack/stack-cleanup.js';
import { repoRoot } from './stack/stack-env.js';
import { probeStack } from './stack/stack-probe.js';
import { startTestWebProcess } from './test-web-process.js';

/**
 * `npm run bench:idle`: what the crawler costs when it does no crawling. The CPU of `crawler
 * --help` and of each service's `--help`, a service's start-up to ready on the stack (time and
 * CPU), and the CPU of an embedded crawl that only waits on its politeness delay, as a share of
 * one core. Prints a markdown table (docs/BENCHMARKS.md shows one).
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'idle-seconds': { type: 'string', default: '20' },
  },
});
const runs = Number(values.runs);
const idleSeconds = Number(values['idle-seconds']);
const log = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
cleanUpOnSignals(log);

const crawler = join(repoRoot, 'packages/cli/dist/main.js');
const serviceMain = (service: string) => join(repoRoot, `services/${service}/dist/main.js`);
const SERVICES = ['scheduler', 'fetcher', 'linkextract', 'dedup'];

interface Row {
  what: string;
  figure: string;
}
const rows: Row[] = [];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** CPU seconds of one process run to its end: its share of this process's reaped children. */
function cpuOfRun(args: string[]): number {
  const before = reapedChildrenCpuSeconds();
  const run = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${run.status}`);
  return reapedChildrenCpuSeconds() - before;
}

for (const [what, args] of [
  ['crawler --help', [crawler, '--help']],
  ['crawler run --help', [crawler, 'run', '--help']],
  ...SERVICES.map((service) => [`crawler-${service} --help`, [serviceMain(service), '--help']]),
] as [string, string[]][]) {
  const cpu = median(Array.from({ length: runs }, () => cpuOfRun(args)));
  rows.push({ what: `${what}: CPU (median of ${runs})`, figure: `${cpu.toFixed(2)} s` });
  log(`${what}: ${cpu.toFixed(2)} s CPU`);
}

/** A service started on the stack: seconds and CPU seconds until /readyz answers 200. */
async function startUpToReady(service: string, stack: Record<string, string>, port: number) {
  const started = performance.now();
  const child = spawn(process.execPath, [serviceMain(service)], {
    env: { ...process.env, ...stack, CRAWLER_HEALTH_PORT: String(port) },
    stdio: 'ignore',
  });
  const unregister = registerCleanup(() => child.kill('SIGKILL'));
  try {
    const deadline = started + 120_000;
    while (performance.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`crawler-${service} exited with ${child.exitCode}`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) return { seconds: (performance.now() - started) / 1000, cpu: cpuSecondsOf(child.pid!) ?? 0 };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`crawler-${service} not ready within 120 s`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    unregister();
  }
}

const probe = await probeStack();
if (!probe.env) log(`stack not reachable (${probe.problem}): service start-up skipped`);
else
  for (const [index, service] of SERVICES.entries()) {
    // Topics, index, table and keys of its own, dropped afterwards.
    const ready = await withFreshStack(probe.env, 'bench-idle', (stack) =>
      startUpToReady(service, stack, 18_700 + index),
    );
    rows.push({
      what: `crawler-${service} on the stack: start to /readyz`,
      figure: `${ready.seconds.toFixed(1)} s, ${ready.cpu.toFixed(2)} s CPU`,
    });
    log(`crawler-${service}: ready in ${ready.seconds.toFixed(1)} s, ${ready.cpu.toFixed(2)} s CPU`);
  }

/**
 * An embedded crawl of one test-web host with a minute between requests: once the seed is fetched
 * and its links are scheduled, the crawl only waits. The test web runs in its own process.
 */
async function idleCrawlShare(): Promise<number> {
  const web = await startTestWebProcess(['--profile', 'bench', '--hosts', '1', '--pages-per-host', '200']);
  const out = mkdtempSync(join(tmpdir(), 'bench-idle-'));
  const args = [crawler, 'run', '--seed', web.seeds[0]!, '--allow-address', '127.0.0.1', '--own-site'];
  const child = spawn(process.execPath, [...args, '--delay-ms', '60000', '--quiet', '--out', join(out, 'crawl')], {
    stdio: 'ignore',
  });
  const unregister = registerCleanup(() => child.kill('SIGKILL'));
  try {
    const deadline = performance.now() + 60_000;
    while ((await web.requestCounts()).get(web.seeds[0]!) === undefined) {
      if (performance.now() > deadline) throw new Error('the idle crawl did not fetch its seed within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The seed's page passes extraction and dedup and its links reach the link base within this.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const before = cpuSecondsOf(child.pid!)!;
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    return (cpuSecondsOf(child.pid!)! - before) / idleSeconds;
  } finally {
    child.kill('SIGINT');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    unregister();
    await web.stop();
    rmSync(out, { recursive: true, force: true });
  }
}

const share = await idleCrawlShare();
rows.push({
  what: `embedded crawl waiting on its delay: CPU over ${idleSeconds} s`,
  figure: `${(share * 100).toFixed(2)} % of a core`,
});
log(`idle crawl: ${(share * 100).toFixed(2)} % of a core`);

process.stdout.write(
  `| measured | figure |\n| --- | --- |\n${rows.map((row) => `| ${row.what} | ${row.figure} |`).join('\n')}\n`,
);
