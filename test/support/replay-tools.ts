import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@crawler/core/free-port';
import { waitFor } from '@crawler/core/testing';
import type { Browser } from 'playwright-core';
import { repoRoot } from '../reliability/support/stack-env.js';

/**
 * The replay tools web archives use, as real consumers of what the crawler writes: warcio's digest
 * check, py-wacz's validator and pywb, from the virtualenv test/prerequisites.sh builds under the
 * stack cache (named after test/replay-requirements.txt's hash), and the system's Chromium.
 */
export function replayBin(tool: 'warcio' | 'wacz' | 'pywb' | 'python'): string {
  const requirements = readFileSync(join(repoRoot, 'test/replay-requirements.txt'));
  const hash = createHash('sha256').update(requirements).digest('hex').slice(0, 12);
  const venv = join(process.env.CRAWLER_STACK_CACHE ?? join(homedir(), '.cache/crawler-stack'), `replay-venv-${hash}`);
  if (!existsSync(join(venv, '.complete')))
    throw new Error(`the replay tools are not installed in ${venv}: run bash test/prerequisites.sh`);
  return join(venv, 'bin', tool);
}

/** `warcio check -v` over WARC files: its exit code and what it said of each record's digests. */
export function warcioCheck(files: string[]): { code: number | null; output: string; passed: number; failed: number } {
  const result = spawnSync(replayBin('warcio'), ['check', '-v', ...files], { encoding: 'utf8' });
  const output = `${result.stdout}${result.stderr}`;
  return {
    code: result.status,
    output,
    passed: output.match(/digest pass/g)?.length ?? 0,
    failed: output.match(/digest fail/g)?.length ?? 0,
  };
}

/** Every record of WARC files as `warcio index` reads them: type, id, the record it is concurrent to, URI. */
export function warcioRecords(files: string[]): Record<string, string>[] {
  const result = spawnSync(
    replayBin('warcio'),
    ['index', '-f', 'warc-type,warc-record-id,warc-concurrent-to,warc-target-uri', ...files],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`warcio index failed: ${result.stderr}`);
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, string>);
}

/** `wacz validate -f FILE`: its exit code and output. */
export function waczValidate(file: string): { code: number | null; output: string } {
  const result = spawnSync(replayBin('wacz'), ['validate', '-f', file], { encoding: 'utf8' });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

export interface Replay {
  /** Where a capture replays: `${prefix}/<14-digit time>/<url>` (pywb's unframed replay). */
  prefix: string;
  close(): Promise<void>;
}

/**
 * pywb replaying a WACZ from its own index (unpacked to a scratch folder, the collection's index
 * the package's indexes/index.cdx): nothing is re-indexed, so what pywb finds is what the crawler
 * wrote. Started on a free port, ready once its collection answers a CDX query.
 */
export async function replayWacz(wacz: string): Promise<Replay> {
  const dir = mkdtempSync(join(tmpdir(), 'pywb-'));
  const unpack = spawnSync(
    replayBin('python'),
    ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', wacz, join(dir, 'wacz')],
    { encoding: 'utf8' },
  );
  if (unpack.status !== 0) throw new Error(`cannot unpack ${wacz}: ${unpack.stderr}`);
  writeFileSync(
    join(dir, 'config.yaml'),
    [
      'framed_replay: false',
      'collections:',
      '  crawl:',
      `    index_paths: ${join(dir, 'wacz', 'indexes')}/`,
      `    archive_paths: ${join(dir, 'wacz', 'archive')}/`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const child = spawn(replayBin('pywb'), ['--port', String(port), '--bind', '127.0.0.1'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const close = async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const prefix = `http://127.0.0.1:${port}/crawl`;
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`pywb exited: ${log}`);
        return (await fetch(`${prefix}/cdx?url=example.test&limit=1`).catch(() => null))?.ok ?? false;
      },
      30_000,
      100,
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { prefix, close };
}

/**
 * Headless Chromium from Debian's package, with the flags this machine needs (no sandbox as root,
 * no background traffic). Unlike the fetcher's renderer it may resolve and connect: it loads pages
 * from pywb on 127.0.0.1.
 */
export async function launchReplayBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
    timeout: 30_000,
  });
}
