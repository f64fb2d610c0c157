import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BackendError } from '@crawler/core';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli.js';
import { capture } from './test-support/capture-output.js';

/** What the stores do in this file's crawls, set per test. */
const stores = vi.hoisted(() => ({ putsFailWith: null as Error | null, statsHang: false, puts: 0 }));

// The ports as the crawl gets them, with a page store whose writes fail and a link base that can stop answering.
vi.mock('@crawler/adapters', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@crawler/adapters')>();
  const intercept = <T extends object>(port: T, replace: (key: string | symbol) => unknown): T =>
    new Proxy(port, {
      get(target, key) {
        const replaced = replace(key);
        if (replaced) return replaced;
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return {
    ...actual,
    createPageStore: async (...args: Parameters<typeof actual.createPageStore>) =>
      intercept(await actual.createPageStore(...args), (key) =>
        key === 'put'
          ? async () => {
              stores.puts++;
              if (stores.putsFailWith) throw stores.putsFailWith;
            }
          : undefined,
      ),
    createLinkBase: async (...args: Parameters<typeof actual.createLinkBase>) => {
      const linkbase = await actual.createLinkBase(...args);
      const stats: typeof linkbase.stats = (...statsArgs) =>
        stores.statsHang && stores.puts > 0 ? new Promise(() => undefined) : linkbase.stats(...statsArgs);
      return intercept(linkbase, (key) => (key === 'stats' ? stats : undefined));
    },
  };
});

/** A real ENOSPC from the kernel: /dev/full refuses every write with it. */
async function diskFullError(): Promise<Error> {
  try {
    await writeFile('/dev/full', 'x');
  } catch (error) {
    return error as Error;
  }
  throw new Error('/dev/full accepted a write');
}

describe('a crawl that cannot write, or whose link base stops answering', () => {
  let web: TestWeb;
  beforeAll(async () => {
    web = await startTestWeb({ profile: 'bench', hosts: 2, pagesPerHost: 300 });
  });
  afterAll(() => web.close());
  afterEach(() => {
    vi.restoreAllMocks();
    Object.assign(stores, { putsFailWith: null, statsHang: false, puts: 0 });
  });

  const run = (...flags: string[]) =>
    runCli([
      'run',
      ...web.seeds.flatMap((seed) => ['--seed', seed]),
      '--allow-address',
      '127.0.0.1',
      '--delay-ms',
      '0',
      '--quiet',
      '--out',
      mkdtempSync(join(tmpdir(), 'crawl-stops-')),
      ...flags,
    ]);

  it('stops at the first write the disk refuses: one line naming the path and the error, exit 1', async () => {
    const cause = await diskFullError();
    stores.putsFailWith = new BackendError('cannot write WARC data in out/warc', { cause });
    const io = capture();
    const started = performance.now();
    expect(await run()).toBe(1);
    // Before, dedup retried the "outage" for 10 minutes, the crawl waiting silently.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(io.err()).toBe(
      'crawler: cannot write the page store: cannot write WARC data in out/warc: ENOSPC: no space left on device, write [CRAWL_WRITE_FAILED]\n',
    );
    expect(io.out()).toBe('');
  }, 30_000);

  it('--max-time ends the crawl even when the link base stops answering', async () => {
    stores.statsHang = true;
    const io = capture();
    const started = performance.now();
    expect(await run('--max-time', '2s')).toBe(1);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(io.err()).toBe(
      'crawler: the link base did not answer within 5 s, so the crawl stopped without a summary [CRAWL_STATE_UNAVAILABLE]\n',
    );
    expect(stores.puts).toBeGreaterThan(0);
  }, 30_000);
});
