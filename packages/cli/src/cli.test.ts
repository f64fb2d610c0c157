import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli.js';
import { capture } from './test-support/capture-output.js';

describe('crawler command line', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints usage with --help and exits 0; with no command exits 2', async () => {
    const io = capture();
    expect(await runCli(['--help'])).toBe(0);
    expect(io.out()).toContain('Usage: crawler <command>');
    expect(await runCli([])).toBe(2);
  });

  it.each(['run', 'demo'])('has --help for %s', async (command) => {
    const io = capture();
    expect(await runCli([command, '--help'])).toBe(0);
    expect(io.out()).toContain(`Usage: crawler ${command}`);
  });

  // Subcommands answer --help before reading settings or reaching a server; admin's share one usage.
  it.each([
    [['check', 'robots', '--help'], 'Usage: crawler check robots'],
    [['check', 'fetch', '-h'], 'Usage: crawler check fetch'],
    [['check', 'url', '--help'], 'Usage: crawler check url'],
    [['check', 'parse', '--help'], 'Usage: crawler check parse'],
    [['check', 'similar', '--help'], 'Usage: crawler check similar'],
    [['admin', '--help'], 'Usage: crawler admin'],
    [['admin', 'stats', '--help'], 'Usage: crawler admin'],
    [['admin', 'pause-host', '--help'], 'Usage: crawler admin'],
    [['render', '--help'], 'Usage: crawler render'],
    [['page', '--help'], 'Usage: crawler page get'],
    [['page', 'get', '--help'], 'Usage: crawler page get'],
    [['dlq', 'list', '--help'], 'Usage: crawler dlq list'],
    [['dlq', 'replay', '--help'], 'Usage: crawler dlq list'],
  ])('%j prints its usage and exits 0', async (argv, heading) => {
    const io = capture();
    expect(await runCli(argv)).toBe(0);
    expect(io.out()).toContain(heading);
    expect(io.err()).toBe('');
  });

  it.each([
    [['frobnicate'], /unknown command "frobnicate"/],
    [['run', '--bogus'], /crawler run: unknown option '--bogus'/],
    [['run'], /no seeds/],
    [['run', '--seed', 'ftp://x.test/'], /not an http\(s\) URL/],
    [['run', '--seed', 'http://x.test/', '--max-pages', 'lots'], /--max-pages must be a whole number/],
    [['run', '--seed', 'http://x.test/', '--max-time', 'soon'], /--max-time must be a duration/],
    [['run', '--seed', 'http://x.test/', '--scope', 'galaxy'], /--scope must be seeds, host or any/],
    [['run', '--seeds-file', '/nonexistent/seeds.txt'], /cannot read --seeds-file/],
    [
      ['run', '--seed', 'http://x.test/', '--allow-address', '0.0.0.0/0'],
      /--allow-address "0.0.0.0\/0" would admit IPv4 space wider than \/8/,
    ],
    [['run', '--seed', 'http://x.test/', '--allow-address', '::/0'], /--allow-address "::\/0" would admit IPv6 space/],
    [
      ['run', '--seed', 'http://x.test/', '--allow-address', '127.0.0.1:99999'],
      /--allow-address "127.0.0.1:99999": the port/,
    ],
    [['demo', '--hosts', 'two'], /--hosts must be a whole number/],
    [['demo', '--pages-per-host', '10'], /--pages-per-host must be a whole number >= 30/],
  ])('refuses %j with one line and exit code 2', async (argv, message) => {
    const io = capture();
    expect(await runCli(argv)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('names the bad setting in one line, exit 2, before it creates the output folder', async () => {
    const io = capture();
    const out = join(tmpdir(), `crawler-cli-test-${process.pid}`);
    vi.stubEnv('FETCHER_CONCURRENCY', 'many');
    const code = await runCli(['run', '--seed', 'http://127.0.0.1:9/', '--quiet', '--out', out]);
    vi.unstubAllEnvs();
    expect(code).toBe(2);
    expect(io.err()).toMatch(/^crawler: fetcher: invalid setting FETCHER_CONCURRENCY \(concurrency\) = "many"/);
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it('says why a refused seed was refused and how to admit it, exits 1 when every seed was, and crawls it when rerun as told', async () => {
    let requests = 0;
    const server = createServer((request, response) => {
      requests++;
      if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Local</title>');
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const seed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const origin = seed.slice('http://'.length, -1);
    const out = mkdtempSync(join(tmpdir(), 'crawler-refused-'));
    try {
      const refused = capture();
      expect(await runCli(['run', '--seed', seed, '--quiet', '--out', out])).toBe(1);
      expect(refused.out()).toContain('blocked_address 1');
      expect(refused.err()).toContain(`seed ${seed} was refused`);
      expect(refused.err()).toContain(`--allow-address ${origin} (or FETCHER_ALLOW_ADDRESSES=${origin})`);
      expect(refused.err()).toContain('every seed was refused');
      expect(requests).toBe(0);
      vi.restoreAllMocks();
      // The advice, followed with the same output folder: the seed refused before is fetched now.
      const admitted = capture();
      expect(await runCli(['run', '--seed', seed, '--allow-address', origin, '--quiet', '--out', out])).toBe(0);
      expect(admitted.out()).toMatch(/pages fetched +1 /);
      expect(admitted.err()).toBe('');
    } finally {
      rmSync(out, { recursive: true, force: true });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
