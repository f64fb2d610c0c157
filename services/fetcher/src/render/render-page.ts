import { ErrorCode } from '@crawler/core';
import type { BrowserContext, Page } from 'playwright-core';
import { RenderError } from './render-errors.js';
import type { RenderNetwork } from './render-network.js';
import { within } from './within.js';

export interface RenderPlan {
  url: string;
  /** Scrolls to the end of the page (infinite-scroll lists). */
  scrolls: number;
  /** "Load more" button: clicked while it is there, at most `clicks` times. */
  click: string | null;
  clicks: number;
  idleMs: number;
}

export interface RenderedDom {
  html: string;
  /** The time limit ended loading or the actions early; the DOM is what stood then. */
  timedOut: boolean;
  scrolled: number;
  clicked: number;
}

/** A click that does not start within this time is not going to. */
const CLICK_TIMEOUT_MS = 2000;
/** A page whose scripts keep its thread busy answers no question; this long is enough for a serialization. */
const SNAPSHOT_TIMEOUT_MS = 5000;

/**
 * Loads the page (its document served from the plain fetch), waits until its requests settle,
 * scrolls and clicks as its site's rule says, and serializes the DOM. A script redirect ends the
 * render at once: the page moved, its DOM is not what the URL shows. When `signal` aborts (time
 * limit) whatever stands is serialized; only a page with no readable DOM fails (RENDER_TIMEOUT).
 */
export async function renderPage(
  context: BrowserContext,
  network: RenderNetwork,
  plan: RenderPlan,
  signal: AbortSignal,
): Promise<RenderedDom> {
  const page = await context.newPage();
  await network.attach(context, page);
  // Ends every wait: the time limit, or a script redirect (the page moved; nothing more to see).
  const over = new AbortController();
  const end = () => over.abort();
  if (signal.aborted) end();
  else signal.addEventListener('abort', end, { once: true });
  void network.moved.then(end);
  const ended = new Promise<void>((resolve) => over.signal.addEventListener('abort', () => resolve(), { once: true }));
  const bounded = (work: Promise<unknown>) => Promise.race([work.catch(() => undefined), ended]);
  const result: RenderedDom = { html: '', timedOut: false, scrolled: 0, clicked: 0 };
  try {
    await bounded(page.goto(plan.url, { waitUntil: 'load', timeout: 0 }));
    await network.idle.settle(plan.idleMs, over.signal);
    for (let i = 0; i < plan.scrolls && !over.signal.aborted; i++) {
      const before = await heightOf(page);
      await bounded(page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)'));
      await network.idle.settle(plan.idleMs, over.signal);
      result.scrolled++;
      // Nothing came and nothing grew: the list has ended.
      if ((await heightOf(page)) <= before && network.idle.quiet) break;
    }
    for (let i = 0; plan.click && i < plan.clicks && !over.signal.aborted; i++) {
      const button = page.locator(plan.click).first();
      if (!(await button.isVisible().catch(() => false))) break;
      const clicked = await button.click({ timeout: CLICK_TIMEOUT_MS }).then(
        () => true,
        () => false,
      );
      if (!clicked) break;
      result.clicked++;
      await network.idle.settle(plan.idleMs, over.signal);
    }
  } finally {
    signal.removeEventListener('abort', end);
  }
  result.timedOut = signal.aborted;
  if (network.record.jsRedirect !== null) return result;
  try {
    result.html = await within(page.content(), SNAPSHOT_TIMEOUT_MS);
  } catch (cause) {
    throw new RenderError(
      ErrorCode.RENDER_TIMEOUT,
      `no DOM could be read from ${plan.url}: ${(cause as Error).message.split('\n')[0]}`,
      { cause },
    );
  }
  return result;
}

async function heightOf(page: Page): Promise<number> {
  return within(page.evaluate<number>('document.documentElement.scrollHeight'), SNAPSHOT_TIMEOUT_MS).catch(() => 0);
}
