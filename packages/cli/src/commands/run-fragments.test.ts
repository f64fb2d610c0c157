import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';

/** Pages linking to themselves and each other behind fragments, empty or not, as documentation sites do. */
const PAGES: Record<string, string> = {
  '/': '<a href="#">top</a><a href="index.html#">index</a><a href="/#intro">intro</a>',
  '/index.html': '<a href="#">top</a><a href="/#">home</a><a href="/about.html#team">about</a>',
  '/about.html': '<a href="about.html#">this page</a><a href="index.html">index</a>',
};

describe('crawler run and fragments', () => {
  let server: Server;
  let origin: string;
  const requested: string[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      requested.push(request.url ?? '');
      const page = PAGES[request.url ?? ''];
      if (page) response.setHeader('content-type', 'text/html').end(`<html><body>${page}</body></html>`);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.restoreAllMocks());

  it('fetches every page once, whether a seed (flag or job file) or a link names it with a fragment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawler-run-fragments-'));
    dirs.push(dir);
    // The output folder holds only what the crawler writes: the job file sits beside it.
    const out = join(dir, 'out');
    const jobFile = join(dir, 'job.json');
    writeFileSync(jobFile, JSON.stringify({ seeds: [`${origin}/index.html#`, `${origin}/#top`] }));
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const code = await runCli([
      'run',
      '--seed',
      `${origin}/#`,
      '--job',
      jobFile,
      '--allow-address',
      '127.0.0.1',
      '--delay-ms',
      '0',
      '--quiet',
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    expect(requested.filter((path) => path !== '/robots.txt').sort()).toEqual(['/', '/about.html', '/index.html']);
    const summary = JSON.parse(readFileSync(join(out, 'crawl-summary.json'), 'utf8')) as {
      urlsKnown: number;
      duplicatesRemoved: number;
    };
    expect(summary).toMatchObject({ urlsKnown: 3, duplicatesRemoved: 0 });
  }, 60_000);
});
