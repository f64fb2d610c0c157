import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@crawler/core/free-port';
import { createScratchDir, removeScratchDir } from '../support/scratch-dir.js';

const deployDir = fileURLToPath(new URL('../../deploy/prometheus/', import.meta.url));

export interface PromSample {
  metric: Record<string, string>;
  value: number;
}

export interface PrometheusProcess {
  url: string;
  query(expr: string): Promise<PromSample[]>;
  /** The raw API answer, for queries whose validity is what is checked. */
  queryStatus(expr: string): Promise<{ status: string; error?: string }>;
  stop(): Promise<void>;
  logTail(): string;
}

/**
 * Debian's prometheus with deploy/prometheus as it is (config and alert rules), scraping the given
 * targets through a targets file, as an operator would; only the intervals are shortened.
 */
export async function startPrometheus(targets: string[], scrapeInterval = '1s'): Promise<PrometheusProcess> {
  const dir = createScratchDir('crawler-prometheus');
  const config = readFileSync(join(deployDir, 'prometheus.yml'), 'utf8')
    .replace(/scrape_interval: 15s/, `scrape_interval: ${scrapeInterval}`)
    .replace(/evaluation_interval: 15s/, `evaluation_interval: ${scrapeInterval}`)
    .replace(/scrape_timeout: 10s/, `scrape_timeout: ${scrapeInterval}`);
  writeFileSync(join(dir, 'prometheus.yml'), config);
  copyFileSync(join(deployDir, 'alerts.yml'), join(dir, 'alerts.yml'));
  mkdirSync(join(dir, 'targets'));
  writeFileSync(join(dir, 'targets', 'test.json'), JSON.stringify([{ targets, labels: { crawl: 'test' } }]));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (const deadline = Date.now() + 30_000; ;) {
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`prometheus did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const api = async (expr: string) =>
    (await (await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`)).json()) as {
      status: string;
      error?: string;
      data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
  return {
    url,
    async query(expr) {
      const answer = await api(expr);
      if (answer.status !== 'success') throw new Error(`query ${expr} failed: ${answer.error}`);
      return answer.data!.result.map((entry) => ({ metric: entry.metric, value: Number(entry.value[1]) }));
    },
    async queryStatus(expr) {
      const { status, error } = await api(expr);
      return { status, error };
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      removeScratchDir(dir);
    },
    logTail: () => log.split('\n').slice(-20).join('\n'),
  };
}
