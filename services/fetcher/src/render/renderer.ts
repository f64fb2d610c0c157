import { canonicalize, canonicalUrl, decodeText, type Logger } from '@crawler/core';
import type { BrowserPool } from './browser-pool.js';
import { metaRefreshTarget } from './html-scan.js';
import { pageSignals, renderingChanged } from './page-signals.js';
import { asRenderError } from './render-errors.js';
import type { RenderGauges, RenderMetrics } from './render-metrics.js';
import { RenderNetwork, type NetworkRecord, type RenderNetworkDeps } from './render-network.js';
import { renderPage, type RenderedDom } from './render-page.js';
import { routePage, type RenderRoute, type RenderRouterOptions } from './render-router.js';

export interface RendererOptions {
  network: RenderNetworkDeps;
  pool: BrowserPool;
  router: RenderRouterOptions;
  /** Time limit of one page, from the moment it has a browser page. */
  timeoutMs: number;
  idleMs: number;
  maxBodyBytes: number;
  metrics: RenderMetrics;
  logger: Logger;
}

/** A plainly fetched page, as the renderer needs it. */
export interface PlainPage {
  url: string;
  urlId: string;
  status: number;
  headers: Record<string, string>;
  contentType: string;
  charset: string | null;
  body: Buffer;
}

export type RenderOutcome =
  /** The rendered DOM replaces the body; `network` is what its sub-requests met. */
  | {
      kind: 'rendered';
      body: Buffer;
      truncated: boolean;
      meta: Record<string, string>;
      pageLinks: string[];
      network: NetworkRecord;
    }
  /** A script moved the page: a redirect, not a page. */
  | { kind: 'redirect'; redirectTo: string; meta: Record<string, string>; pageLinks: string[]; network: NetworkRecord }
  /** The render failed: the plain page is kept, flagged with the error code. */
  | { kind: 'unrendered'; meta: Record<string, string> };

/**
 * Rendering in the fetcher: routes each plainly fetched HTML page, renders the routed ones in the
 * browser pool behind the render network, and says what to publish. Returns null for pages that
 * are not rendered, which then go on exactly as before. A failed render is an outcome.
 */
export class Renderer {
  constructor(private readonly options: RendererOptions) {}

  /** `stop` (the fetcher stopping) ends a render early: what the page shows by then is kept. */
  async process(page: PlainPage, stop?: AbortSignal): Promise<RenderOutcome | null> {
    const { options } = this;
    let html: string | undefined;
    const plainHtml = () => (html ??= decodeText(page.body, page.charset).text);
    const host = new URL(page.url).host;
    let route: RenderRoute;
    try {
      route = await this.route(page, plainHtml);
    } catch (error) {
      // The learned decision could not be read (store down): the page goes on unrendered rather than waiting.
      options.logger.warn({ url: page.url, err: error }, 'render routing failed; page kept as fetched');
      options.metrics.countRoute('error');
      return null;
    }
    options.metrics.countRoute(route.reason);
    if (!route.render) return null;

    const started = performance.now();
    let rendered: { dom: RenderedDom; record: NetworkRecord } | null;
    try {
      rendered = await this.render(page, route, plainHtml(), stop);
    } catch (error) {
      const failure = asRenderError(error);
      options.metrics.countRender(failure.code.toLowerCase(), performance.now() - started, new Map());
      options.logger.info(
        { url: page.url, code: failure.code, err: failure.message },
        'render failed; page kept as fetched',
      );
      return { kind: 'unrendered', meta: { renderError: failure.code } };
    }
    if (!rendered) {
      options.metrics.countRender('learned_skip', performance.now() - started, new Map());
      return null;
    }
    const { dom, record } = rendered;
    const durationMs = performance.now() - started;
    const meta: Record<string, string> = {
      rendered: 'true',
      renderReason: route.reason,
      renderMs: String(Math.round(durationMs)),
      renderRequests: String(record.sent),
      renderCached: String(record.cached),
      renderRefused: String([...record.refused.values()].reduce((sum, count) => sum + count, 0)),
      ...(dom.timedOut ? { renderTimedOut: 'true' } : {}),
    };
    const pageLinks = [...record.pageLike]
      .map((url) => canonicalUrl(url))
      .filter((url): url is string => url !== null && url !== page.url);
    const target = record.jsRedirect ? canonicalize(record.jsRedirect, page.url) : null;
    const moved = target?.ok && target.url !== page.url ? target.url : null;
    options.metrics.countRender(moved ? 'redirect' : 'rendered', durationMs, subrequestCounts(record));
    if (route.learn) {
      const changed =
        moved !== null ||
        pageLinks.length > 0 ||
        renderingChanged(pageSignals(plainHtml(), page.url), pageSignals(dom.html, page.url));
      await options.router.learning
        ?.record(host, page.urlId, changed)
        .catch((error: unknown) => options.logger.warn({ host, err: error }, 'render learning sample not stored'));
    }
    if (moved)
      return { kind: 'redirect', redirectTo: moved, meta: { ...meta, redirect: 'script' }, pageLinks, network: record };
    const body = Buffer.from(dom.html, 'utf8');
    const truncated = body.length > options.maxBodyBytes;
    return {
      kind: 'rendered',
      body: truncated ? body.subarray(0, options.maxBodyBytes) : body,
      truncated,
      meta,
      pageLinks,
      network: record,
    };
  }

  /** Whether, and why, a page is rendered (also what the render command shows). */
  route(page: PlainPage, html: () => string = () => decodeText(page.body, page.charset).text): Promise<RenderRoute> {
    return routePage(this.options.router, {
      url: page.url,
      host: new URL(page.url).host,
      contentType: page.contentType,
      html,
    });
  }

  /** Null when the site's decision became "skip" while the page waited for a browser page. */
  private render(
    page: PlainPage,
    route: Extract<RenderRoute, { render: true }>,
    html: string,
    stop?: AbortSignal,
  ): Promise<{ dom: RenderedDom; record: NetworkRecord } | null> {
    const { options } = this;
    return options.pool.withContext(async (context) => {
      const learning = options.router.learning;
      if (route.learn && learning && (await learning.decision(new URL(page.url).host)) === 'skip') return null;
      // The time limit starts when the page has a browser page, not while it waits for one.
      const time = new AbortController();
      const timer = setTimeout(() => time.abort(), options.timeoutMs);
      const onStop = () => time.abort();
      if (stop?.aborted) onStop();
      else stop?.addEventListener('abort', onStop, { once: true });
      const document = { url: page.url, status: page.status, headers: page.headers, body: page.body };
      const network = new RenderNetwork(options.network, document, time.signal, metaRefreshTarget(html, page.url));
      try {
        const plan = {
          url: page.url,
          scrolls: route.rule?.scrolls ?? 0,
          click: route.rule?.click ?? null,
          clicks: route.rule?.clicks ?? 0,
          idleMs: options.idleMs,
        };
        return { dom: await renderPage(context, network, plan, time.signal), record: network.record };
      } finally {
        clearTimeout(timer);
        stop?.removeEventListener('abort', onStop);
        // Sub-requests still waiting for their host's turn give up with the page.
        time.abort();
      }
    });
  }

  get metrics(): RenderMetrics {
    return this.options.metrics;
  }

  /** The pool's state, for the metrics' gauges. */
  gauges(): RenderGauges {
    const { pool } = this.options;
    return { ...pool.depth(), memoryBytes: pool.lastUsage?.pssBytes ?? 0, restarts: pool.restarts };
  }

  close(): Promise<void> {
    return this.options.pool.close();
  }
}

function subrequestCounts(record: NetworkRecord): Map<string, number> {
  const counts = new Map<string, number>([
    ['sent', record.sent],
    ['cached', record.cached],
    ['failed', record.failed],
  ]);
  for (const [reason, count] of record.refused) counts.set(`refused_${reason}`, count);
  return counts;
}
