import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startOneProcessCrawl, testWebOverrides } from '@crawler/cli';
import { parseCrawlJob, silentLogger, urlId } from '@crawler/core';
import {
  BrowserMemory,
  createFetcherParts,
  createRenderer,
  fetchUrl,
  launchChromium,
  loadFetcherConfig,
  type FetcherConfig,
} from '@crawler/fetcher';
import type { GroundTruth } from '@crawler/testweb';
import { descendantCpuSeconds } from './descendant-cpu.js';
import { startRenderWebProcess, type RenderWebProcess } from './render-web-process.js';

/**
 * `node bench/dist/render-bench.js`: rendering against plain fetching on the test web's render
 * profile (served by its own process). 1) The same pages fetched plainly and fetched and rendered
 * with 1, 2 and 4 browser pages, in alternating rounds: pages/s and CPU per page (this process,
 * plus every Chromium process for renders, read from /proc: a loaded machine stretches wall time,
 * CPU time much less). 2) Memory per browser page: the browser's PSS with
 * 1 to 8 rendered pages held open. 3) A crawl of the whole web without and with rendering: pages
 * found, and the share of pages rendered on the mixed site and elsewhere.
 */
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    pools: { type: 'string', default: '1,2,4' },
    'held-pages': { type: 'string', default: '1,2,4,8' },
    json: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;
const SETTINGS = {
  allowAddresses: ['127.0.0.1'],
  minDelayMs: 0,
  delayFactor: 0,
  perHostConcurrency: 16,
  concurrency: 16,
};

interface Run {
  perSecond: number;
  /** CPU milliseconds per page: this process, and the browser's processes. */
  nodeCpuMs: number;
  browserCpuMs: number;
  results: Record<string, number>;
}

/** Runs `work` over the URLs, `concurrency` at a time. */
async function each(
  urls: string[],
  concurrency: number,
  work: (url: string) => Promise<string>,
): Promise<Record<string, number>> {
  const results: Record<string, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < urls.length) {
        const result = await work(urls[next++]!);
        results[result] = (results[result] ?? 0) + 1;
      }
    }),
  );
  return results;
}

async function plainRun(urls: string[]): Promise<Run> {
  const parts = createFetcherParts(loadFetcherConfig({ env: {}, overrides: SETTINGS }), null, silentLogger());
  const started = performance.now();
  const cpu = process.cpuUsage();
  const results = await each(
    urls,
    8,
    async (url) => (await fetchUrl(parts.deps, { url, jobId: 'bench', etag: null, lastModified: null })).kind,
  );
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  parts.gate.close();
  await parts.client.close();
  return {
    perSecond: urls.length / seconds,
    nodeCpuMs: (used.user + used.system) / 1000 / urls.length,
    browserCpuMs: 0,
    results,
  };
}

async function renderRun(urls: string[], pages: number, serverPid: number): Promise<Run> {
  const config = loadFetcherConfig({
    env: {},
    overrides: {
      ...SETTINGS,
      render: true,
      renderPages: pages,
      renderWaitingMax: 10_000,
      renderMemoryMb: 16_384,
      renderLearnSamples: 0,
    },
  });
  const parts = createFetcherParts(config, null, silentLogger());
  // Every page is rendered, whatever the routing would say: this measures the browser, not the router.
  const renderer = createRenderer(config, parts, null, silentLogger(), {
    rules: [{ pattern: '.', render: 'always', scrolls: 0, clicks: 5 }],
  })!;
  const renderOne = async (url: string) => {
    const page = await fetchUrl(parts.deps, { url, jobId: 'bench', etag: null, lastModified: null });
    if (page.kind !== 'page') return page.outcome;
    const rendered = await renderer.process({
      url: page.finalUrl,
      urlId: urlId(page.finalUrl),
      status: page.httpStatus,
      headers: page.headers,
      contentType: page.contentType,
      charset: page.charset,
      body: page.body,
    });
    return rendered?.kind ?? 'not rendered';
  };
  try {
    await renderOne(urls[0]!); // starts the browser: a one-off cost, left out
    // The browser's processes from /proc, renderers that exited included (Chromium's own list forgets those).
    const browserBefore = descendantCpuSeconds([serverPid]);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const results = await each(urls, pages * 2, renderOne);
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    const browserCpuMs = ((descendantCpuSeconds([serverPid]) - browserBefore) * 1000) / urls.length;
    return {
      perSecond: urls.length / seconds,
      nodeCpuMs: (used.user + used.system) / 1000 / urls.length,
      browserCpuMs,
      results,
    };
  } finally {
    await renderer.close();
    parts.gate.close();
    await parts.client.close();
  }
}

/** The browser's PSS with `count` rendered pages held open, each in its own context; resources come from memory. */
async function heldPagesMemory(config: FetcherConfig, urls: string[], counts: number[]) {
  const served = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
  const answer = async (url: string) => {
    let hit = served.get(url);
    if (!hit) {
      const response = await fetch(url);
      hit = {
        status: response.status,
        headers: { 'content-type': response.headers.get('content-type') ?? 'text/html' },
        body: Buffer.from(await response.arrayBuffer()),
      };
      served.set(url, hit);
    }
    return hit;
  };
  const browser = await launchChromium(config.renderChromium);
  const memory = new BrowserMemory(browser);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));
  try {
    await settle();
    const idle = (await memory.usage())!.pssBytes;
    const held = [];
    for (const count of counts) {
      const contexts = await Promise.all(
        urls.slice(0, count).map(async (url) => {
          const context = await browser.newContext();
          await context.route('**/*', async (route) => route.fulfill(await answer(route.request().url())));
          const page = await context.newPage();
          await page.goto(url, { waitUntil: 'networkidle' });
          return context;
        }),
      );
      await settle();
      const pss = (await memory.usage())!.pssBytes;
      held.push({
        pages: count,
        pssMb: Math.round(pss / 2 ** 20),
        perPageMb: Number(((pss - idle) / count / 2 ** 20).toFixed(1)),
      });
      await Promise.all(contexts.map((context) => context.close()));
      await settle();
    }
    const [first, last] = [held[0]!, held.at(-1)!];
    const marginalMb =
      last.pages > first.pages ? Number(((last.pssMb - first.pssMb) / (last.pages - first.pages)).toFixed(1)) : null;
    return { idleBrowserMb: Math.round(idle / 2 ** 20), held, marginalMbPerPage: marginalMb };
  } finally {
    await browser.close();
  }
}

/** The per-site rules the render web needs (the truth says which pages scroll or click). */
function rulesFor(truth: GroundTruth): unknown[] {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return truth.rendering.enhanced.map(({ url, trigger, steps, selector }) => ({
    pattern: `^${escape(url)}$`,
    ...(trigger === 'scroll' ? { scrolls: steps + 1 } : {}),
    ...(trigger === 'click' ? { click: selector, clicks: steps + 1 } : {}),
  }));
}

/** A whole crawl of the render web, without or with rendering: pages found and rendered, per host. */
async function crawlShare(web: RenderWebProcess, rendering: boolean) {
  const outDir = mkdtempSync(join(tmpdir(), 'render-bench-'));
  try {
    const rulesFile = join(outDir, 'rules.json');
    writeFileSync(rulesFile, JSON.stringify(rulesFor(web.truth)));
    const fetcher = {
      ...testWebOverrides.fetcher,
      totalTimeoutMs: 10_000,
      headersTimeoutMs: 5000,
      bodyTimeoutMs: 5000,
      ...(rendering ? { render: true, renderRulesFile: rulesFile } : {}),
    };
    const started = performance.now();
    const cpu = process.cpuUsage();
    const crawl = await startOneProcessCrawl({
      outDir,
      job: parseCrawlJob({ id: 'render-bench', seeds: web.seeds, maxDepth: web.truth.maxDepth }),
      logger: silentLogger(),
      overrides: { ...testWebOverrides, fetcher },
    });
    try {
      await crawl.waitUntilDone({ maxTimeMs: 600_000 });
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const fetched = new Set<string>();
      for await (const record of crawl.linkbase.scan())
        if (record.status === 'fetched' || record.status === 'duplicate') fetched.add(record.url);
      const hosts = [];
      for (const host of web.hosts) {
        const pages = web.truth.pages.filter((url) => url.startsWith(`${host.origin}/`));
        const found = pages.filter((url) => fetched.has(url));
        let rendered = 0;
        for (const url of found)
          if ((await crawl.pages.get(url, { versions: 1 }))[0]?.charsetSource === 'rendered') rendered++;
        hosts.push({
          host: host.name,
          pages: pages.length,
          found: found.length,
          rendered,
          renderedShare: found.length ? Number((rendered / found.length).toFixed(3)) : 0,
        });
      }
      return {
        rendering,
        seconds: Number(seconds.toFixed(1)),
        nodeCpuSeconds: Number(((used.user + used.system) / 1e6).toFixed(1)),
        hosts,
        renders: Object.fromEntries(crawl.fetcher.renderer?.metrics.results ?? []),
      };
    } finally {
      await crawl.stop();
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const web = await startRenderWebProcess();
let report;
try {
  const byName = Object.fromEntries(web.hosts.map((host) => [host.name, host.origin]));
  const urls = web.truth.pages.filter((url) => url.startsWith(`${byName.app}/`) || url.startsWith(`${byName.mixed}/`));
  const pools = values.pools.split(',').map(Number);
  const plain: Run[] = [];
  const rendered = new Map<number, Run[]>(pools.map((pages) => [pages, []]));
  // Alternating rounds with medians: a busy neighbour on the machine hurts both sides alike.
  for (let round = 0; round < rounds; round++) {
    plain.push(await plainRun(urls));
    for (const pages of pools) rendered.get(pages)!.push(await renderRun(urls, pages, web.pid));
  }
  const plainPerSecond = median(plain.map((run) => run.perSecond));
  const plainCpuMs = median(plain.map((run) => run.nodeCpuMs));
  const throughput = pools.map((pages) => {
    const runs = rendered.get(pages)!;
    const cpuMs = median(runs.map((run) => run.nodeCpuMs + run.browserCpuMs));
    return {
      browserPages: pages,
      perSecond: Number(median(runs.map((run) => run.perSecond)).toFixed(1)),
      vsPlain: Number((median(runs.map((run) => run.perSecond)) / plainPerSecond).toFixed(4)),
      cpuMsPerPage: Number(cpuMs.toFixed(1)),
      nodeCpuMsPerPage: Number(median(runs.map((run) => run.nodeCpuMs)).toFixed(1)),
      browserCpuMsPerPage: Number(median(runs.map((run) => run.browserCpuMs)).toFixed(1)),
      cpuVsPlain: Number((cpuMs / plainCpuMs).toFixed(1)),
      results: runs.at(-1)!.results,
    };
  });
  const config = loadFetcherConfig({ env: {}, overrides: SETTINGS });
  const shells = web.truth.rendering.shells.filter((url) => url.startsWith(`${byName.app}/item/`));
  const memory = await heldPagesMemory(config, shells, values['held-pages'].split(',').map(Number));
  const crawls = [await crawlShare(web, false), await crawlShare(web, true)];
  report = {
    pages: urls.length,
    rounds,
    plain: {
      perSecond: Number(plainPerSecond.toFixed(1)),
      cpuMsPerPage: Number(plainCpuMs.toFixed(2)),
      results: plain.at(-1)!.results,
    },
    rendered: throughput,
    memory,
    crawls,
  };
} finally {
  await web.stop();
}

if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
else {
  const lines = [
    `plain fetch: ${report.plain.perSecond} pages/s, ${report.plain.cpuMsPerPage} ms CPU/page (${report.pages} pages, median of ${report.rounds} rounds)`,
  ];
  for (const run of report.rendered)
    lines.push(
      `rendered, ${run.browserPages} browser page(s): ${run.perSecond} pages/s (x${run.vsPlain} of plain), ${run.cpuMsPerPage} ms CPU/page (node ${run.nodeCpuMsPerPage} + browser ${run.browserCpuMsPerPage}; x${run.cpuVsPlain} of plain)`,
    );
  lines.push(
    `browser memory: idle ${report.memory.idleBrowserMb} MB; ${report.memory.held.map((held) => `${held.pages} page(s) ${held.pssMb} MB`).join(', ')}; ${report.memory.marginalMbPerPage} MB per extra page`,
  );
  for (const crawl of report.crawls)
    lines.push(
      `crawl ${crawl.rendering ? 'with' : 'without'} rendering: ${crawl.seconds} s; ${crawl.hosts.map((h) => `${h.host} ${h.found}/${h.pages} found, ${h.rendered} rendered (${(h.renderedShare * 100).toFixed(1)}%)`).join('; ')}`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
}
