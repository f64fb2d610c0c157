import { ErrorCode } from '@crawler/core';
import type { Logger } from '@crawler/core';
import type { Browser, BrowserContext } from 'playwright-core';
import { BrowserMemory, type BrowserUsage } from './browser-memory.js';
import { launchChromium } from './chromium-launch.js';
import { asRenderError, RenderError } from './render-errors.js';
import { within } from './within.js';

export interface BrowserPoolOptions {
  executablePath: string;
  /** The crawler's own User-Agent, also what scripts read from navigator.userAgent. */
  userAgent: string;
  /** Pages rendering at once. */
  pages: number;
  /** Renders waiting for a page; more are refused (RENDER_QUEUE_FULL). */
  waitingMax: number;
  /** Above this, the browser is restarted once its pages are done. */
  memoryCapBytes: number;
  logger: Logger;
  /** Starts a browser; tests pass a counting or failing one. */
  launch?: (executablePath: string) => Promise<Browser>;
  /** After a failed launch, renders fail fast for this long before a launch is tried again. */
  relaunchDelayMs?: number;
}

interface Generation {
  browser: Browser;
  memory: BrowserMemory;
  active: number;
  /** Over the memory cap: takes no new pages, closes when its last page is done. */
  retiring: boolean;
}

/** Memory is read after a render at most this often. */
const MEMORY_CHECK_MS = 2000;
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * A bounded pool of headless Chromium pages, started on the first render (a fetcher that never
 * renders never starts a browser). Each render gets a fresh browser context, so no cookie, cache
 * or storage passes from one page to the next. The browser is restarted when its memory passes
 * the cap (after its pages finish, so memory never doubles) and relaunched after a crash.
 */
export class BrowserPool {
  private current: Generation | null = null;
  private launching: Promise<Generation> | null = null;
  private launchFailedAt = Number.NEGATIVE_INFINITY;
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  private lastMemoryCheck = Number.NEGATIVE_INFINITY;
  private closed = false;
  launches = 0;
  restarts = new Map<string, number>();
  lastUsage: BrowserUsage | null = null;

  constructor(private readonly options: BrowserPoolOptions) {}

  /** Renders with a fresh context of the pool's browser; waits for a free page first. */
  async withContext<T>(render: (context: BrowserContext) => Promise<T>): Promise<T> {
    await this.acquireSlot();
    let generation: Generation | null = null;
    try {
      generation = await this.generation();
      generation.active++;
      const context = await generation.browser
        .newContext({
          userAgent: this.options.userAgent,
          serviceWorkers: 'block',
          acceptDownloads: false,
          viewport: { width: 1280, height: 800 },
        })
        .catch((error: unknown) => {
          throw asRenderError(error);
        });
      try {
        return await render(context);
      } finally {
        // A renderer stuck in a script loop can hold the close; such a browser is replaced.
        const closed = await within(context.close(), CLOSE_TIMEOUT_MS).then(
          () => true,
          () => false,
        );
        if (!closed && !generation.retiring) {
          generation.retiring = true;
          this.count('stuck');
        }
      }
    } finally {
      if (generation) {
        generation.active--;
        await this.afterRender(generation);
      }
      this.releaseSlot();
    }
  }

  /** Pages rendering now, renders waiting for one. */
  depth(): { busy: number; waiting: number } {
    return { busy: this.active, waiting: this.waiters.length };
  }

  async close(): Promise<void> {
    this.closed = true;
    const generation = this.current ?? (await this.launching?.catch(() => null)) ?? null;
    this.current = null;
    await generation?.browser.close().catch(() => undefined);
    for (const wake of this.waiters.splice(0)) wake();
  }

  private acquireSlot(): Promise<void> {
    if (this.closed) return Promise.reject(new RenderError(ErrorCode.RENDER_FAILED, 'the renderer is closed'));
    if (this.active < this.options.pages && !this.current?.retiring) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiters.length >= this.options.waitingMax) {
      return Promise.reject(
        new RenderError(
          ErrorCode.RENDER_QUEUE_FULL,
          `all ${this.options.pages} browser pages are busy and ${this.waiters.length} pages wait for one`,
        ),
      );
    }
    return new Promise((resolve, reject) =>
      this.waiters.push(() => {
        if (this.closed) return reject(new RenderError(ErrorCode.RENDER_FAILED, 'the renderer is closed'));
        this.active++;
        resolve();
      }),
    );
  }

  private releaseSlot(): void {
    this.active--;
    // A retiring browser lets no new page start until it is gone.
    while (this.waiters.length > 0 && this.active < this.options.pages && !this.current?.retiring)
      this.waiters.shift()!();
  }

  private async generation(): Promise<Generation> {
    if (this.current?.browser.isConnected()) return this.current;
    this.current = null;
    if (performance.now() - this.launchFailedAt < (this.options.relaunchDelayMs ?? 30_000)) {
      throw new RenderError(
        ErrorCode.RENDER_LAUNCH_FAILED,
        `Chromium (${this.options.executablePath}) failed to start recently; not tried again yet`,
      );
    }
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  private async launch(): Promise<Generation> {
    let browser: Browser;
    try {
      browser = await (this.options.launch ?? launchChromium)(this.options.executablePath);
    } catch (error) {
      this.launchFailedAt = performance.now();
      this.options.logger.error(
        { executablePath: this.options.executablePath, err: error },
        'Chromium failed to start; pages are kept unrendered',
      );
      throw new RenderError(
        ErrorCode.RENDER_LAUNCH_FAILED,
        `Chromium (${this.options.executablePath}) failed to start: ${(error as Error).message.split('\n')[0]}`,
        { cause: error },
      );
    }
    this.launches++;
    const generation: Generation = { browser, memory: new BrowserMemory(browser), active: 0, retiring: false };
    browser.on('disconnected', () => {
      if (this.current !== generation || this.closed) return;
      this.current = null;
      this.count('crash');
      this.options.logger.warn(
        { launches: this.launches },
        'the browser went away; it is started again for the next page',
      );
    });
    if (this.closed) {
      await browser.close();
      throw new RenderError(ErrorCode.RENDER_FAILED, 'the renderer is closed');
    }
    this.current = generation;
    return generation;
  }

  private async afterRender(generation: Generation): Promise<void> {
    if (
      generation === this.current &&
      !generation.retiring &&
      performance.now() - this.lastMemoryCheck >= MEMORY_CHECK_MS
    ) {
      this.lastMemoryCheck = performance.now();
      const usage = await generation.memory.usage().catch(() => null);
      this.lastUsage = usage;
      if (usage && usage.pssBytes > this.options.memoryCapBytes) {
        generation.retiring = true;
        this.count('memory');
        this.options.logger.info(
          { pssBytes: usage.pssBytes, capBytes: this.options.memoryCapBytes },
          'browser over its memory cap; restarting it once its pages are done',
        );
      }
    }
    if (generation.retiring && generation.active === 0) {
      if (this.current === generation) this.current = null;
      await generation.browser.close().catch(() => undefined);
    }
  }

  private count(reason: string): void {
    this.restarts.set(reason, (this.restarts.get(reason) ?? 0) + 1);
  }
}
