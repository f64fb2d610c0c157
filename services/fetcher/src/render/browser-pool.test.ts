import { silentLogger } from '@crawler/core';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { BrowserPool, type BrowserPoolOptions } from './browser-pool.js';
import { launchChromium } from './chromium-launch.js';
import { asRenderError, RenderError } from './render-errors.js';

const CHROMIUM = '/usr/bin/chromium';

// Browsers on a shared two-core machine: a render may take seconds, so tests get a minute.
describe('browser pool', { timeout: 60_000 }, () => {
  const pools: BrowserPool[] = [];
  const launched: Browser[] = [];
  const poolWith = (options: Partial<BrowserPoolOptions> = {}) => {
    const pool = new BrowserPool({
      executablePath: CHROMIUM,
      userAgent: 'crawler-test/1.0 (+http://127.0.0.1/)',
      pages: 2,
      waitingMax: 4,
      memoryCapBytes: 4 * 1024 ** 3,
      logger: silentLogger(),
      launch: async (path) => {
        const browser = await launchChromium(path);
        launched.push(browser);
        return browser;
      },
      ...options,
    });
    pools.push(pool);
    return pool;
  };
  const showText = async (context: BrowserContext) => {
    const page = await context.newPage();
    await page.setContent(
      '<p id="p"></p><script>document.getElementById("p").textContent = navigator.userAgent</script>',
    );
    return page.textContent('#p');
  };

  afterEach(async () => {
    for (const pool of pools.splice(0)) await pool.close();
    launched.length = 0;
  });

  it("starts no browser until the first render, then serves every render from it with the crawler's User-Agent", async () => {
    const pool = poolWith();
    expect(pool.launches).toBe(0);
    const texts = await Promise.all([
      pool.withContext(showText),
      pool.withContext(showText),
      pool.withContext(showText),
    ]);
    expect(texts).toEqual(Array(3).fill('crawler-test/1.0 (+http://127.0.0.1/)'));
    expect(pool.launches).toBe(1);
    expect(pool.lastUsage?.pssBytes).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('restarts the browser once it is over its memory cap', async () => {
    const pool = poolWith({ memoryCapBytes: 1024 * 1024 });
    await pool.withContext(showText);
    expect(pool.restarts.get('memory')).toBe(1);
    expect(launched[0]!.isConnected()).toBe(false);
    await pool.withContext(showText);
    expect(pool.launches).toBe(2);
  });

  it('fails a render whose browser goes away as a crash, and starts a new browser for the next', async () => {
    const pool = poolWith();
    const crashed = await pool
      .withContext(async (context) => {
        const page = await context.newPage();
        await launched[0]!.close();
        return page.content();
      })
      .then(
        () => null,
        (error: unknown) => asRenderError(error),
      );
    expect(crashed?.code).toBe('RENDER_BROWSER_CRASHED');
    expect(pool.restarts.get('crash')).toBe(1);
    expect(await pool.withContext(showText)).toContain('crawler-test');
    expect(pool.launches).toBe(2);
  });

  it('reports a browser that cannot start, and does not try again on every page', async () => {
    let attempts = 0;
    const pool = poolWith({
      launch: async () => {
        attempts++;
        throw new Error('spawn /nowhere/chromium ENOENT');
      },
    });
    for (let i = 0; i < 3; i++)
      await expect(pool.withContext(showText)).rejects.toMatchObject({ code: 'RENDER_LAUNCH_FAILED' });
    expect(attempts).toBe(1);
  });

  it('refuses renders past the waiting bound instead of queueing without end', async () => {
    const pool = poolWith({ pages: 1, waitingMax: 1 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = pool.withContext(() => held);
    const second = pool.withContext(showText);
    const third = pool.withContext(showText).catch((error: unknown) => error);
    expect(await third).toBeInstanceOf(RenderError);
    expect(((await third) as RenderError).code).toBe('RENDER_QUEUE_FULL');
    expect(pool.depth()).toEqual({ busy: 1, waiting: 1 });
    release();
    await first;
    expect(await second).toContain('crawler-test');
  });
});
