import { writeFileSync } from 'node:fs';
import { decodeText, silentLogger, urlId } from '@crawler/core';
import {
  createFetcherParts,
  createRenderer,
  fetchUrl,
  loadFetcherConfig,
  pageSignals,
  type RenderOutcome,
  type RenderRule,
} from '@crawler/fetcher';
import { checkOutputFile, intFlag, parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';
import { jsonLine, textLines } from '../terminal-text.js';

export const renderHelp = `Usage: crawler render [options] URL

Fetches one URL as the fetcher does, then routes and renders it as the fetcher does with
rendering on: shows why the page is (or is not) rendered, what its requests met (sent, from the
cache, refused and why), its links before and after, a script redirect, and the HTML pages its
scripts fetched. Nothing is stored. Chromium comes from FETCHER_RENDER_CHROMIUM (/usr/bin/chromium).

  --allow-address IP    admit a private/loopback address or CIDR (repeatable)
  --ignore-robots       do not read robots.txt (only for sites you own)
  --rules FILE          per-site render rules, as FETCHER_RENDER_RULES_FILE
  --force               render even where the routing would not (an "always" rule for this URL)
  --scrolls N           with --force: scroll to the end N times
  --click SELECTOR      with --force: click this "load more" button while it is there
  --html FILE           write the rendered HTML to FILE
  --json                one JSON object on stdout
  -h, --help            this help

Settings not given here come from the environment (FETCHER_*, see docs/CONFIGURATION.md).
Exit code 0 when the page was fetched (rendered or not); 1 when the fetch or the render failed.`;

export const flagSpec = {
  'allow-address': { type: 'string', multiple: true },
  'ignore-robots': { type: 'boolean' },
  rules: { type: 'string' },
  force: { type: 'boolean' },
  scrolls: { type: 'string' },
  click: { type: 'string' },
  html: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export interface RenderReport {
  url: string;
  fetched: string;
  route: string;
  result: string;
  redirectTo: string | null;
  meta: Record<string, string>;
  requests: { sent: number; cached: number; failed: number; refused: Record<string, number> };
  refusals: { url: string; reason: string }[];
  links: { before: number; after: number; added: string[] };
  scriptFetchedPages: string[];
}

export async function renderCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('render', argv, flagSpec, true);
  if (values.help) {
    process.stdout.write(`${renderHelp}\n`);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError('crawler render: give exactly one URL (see crawler render --help)');
  const target = positionals[0]!;
  if (!/^https?:\/\//i.test(target)) throw new UsageError(`crawler render: "${target}" is not an http(s) URL`);
  const scrolls = intFlag('render', 'scrolls', values.scrolls, 0);
  if ((scrolls !== undefined || values.click) && !values.force)
    throw new UsageError('crawler render: --scrolls and --click go with --force (or put them in a --rules file)');
  if (values.html !== undefined) checkOutputFile('render', 'html', values.html);
  const overrides: Record<string, unknown> = { minDelayMs: 0, render: true };
  if (values['allow-address']) overrides.allowAddresses = values['allow-address'];
  if (values['ignore-robots']) overrides.obeyRobots = false;
  if (values.rules) overrides.renderRulesFile = values.rules;
  const config = loadFetcherConfig({ overrides });
  const url = new URL(target);
  const forced: RenderRule[] = values.force
    ? [
        {
          pattern: `^${url.href.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`,
          render: 'always',
          scrolls: scrolls ?? 0,
          clicks: 5,
          ...(values.click ? { click: values.click } : {}),
        },
      ]
    : [];
  const parts = createFetcherParts(config, null, silentLogger());
  const renderer = createRenderer(config, parts, null, silentLogger(), { rules: forced })!;
  try {
    const fetched = await fetchUrl(parts.deps, { url: url.href, jobId: 'render', etag: null, lastModified: null });
    if (fetched.kind === 'status') {
      process.stderr.write(
        textLines([
          `crawler render: the fetch ended as ${fetched.outcome}${fetched.errorCode ? ` [${fetched.errorCode}]` : ''}${fetched.redirectTo ? ` to ${fetched.redirectTo}` : ''}; nothing to render`,
        ]),
      );
      return 1;
    }
    const plain = {
      url: fetched.finalUrl,
      urlId: urlId(fetched.finalUrl),
      status: fetched.httpStatus,
      headers: fetched.headers,
      contentType: fetched.contentType,
      charset: fetched.charset,
      body: fetched.body,
    };
    const route = await renderer.route(plain);
    const outcome = await renderer.process(plain);
    const plainHtml = fetched.charset ? decodeText(fetched.body, fetched.charset).text : '';
    const report = reportOf(url.href, fetched.finalUrl, route.reason, outcome, plainHtml);
    if (values.html && outcome?.kind === 'rendered') writeFileSync(values.html, outcome.body);
    process.stdout.write(values.json ? jsonLine(report) : formatReport(report));
    return outcome?.kind === 'unrendered' ? 1 : 0;
  } finally {
    await renderer.close();
    parts.gate.close();
    await parts.client.close();
  }
}

function reportOf(
  url: string,
  fetched: string,
  route: string,
  outcome: RenderOutcome | null,
  plainHtml: string,
): RenderReport {
  const before = pageSignals(plainHtml, fetched).links;
  const network = outcome && outcome.kind !== 'unrendered' ? outcome.network : null;
  const after = outcome?.kind === 'rendered' ? pageSignals(outcome.body.toString('utf8'), fetched).links : before;
  return {
    url,
    fetched,
    route,
    result: outcome === null ? 'not rendered' : outcome.kind,
    redirectTo: outcome?.kind === 'redirect' ? outcome.redirectTo : null,
    meta: outcome?.meta ?? {},
    requests: {
      sent: network?.sent ?? 0,
      cached: network?.cached ?? 0,
      failed: network?.failed ?? 0,
      refused: Object.fromEntries(network?.refused ?? []),
    },
    refusals: network?.refusals ?? [],
    links: { before: before.size, after: after.size, added: [...after].filter((link) => !before.has(link)) },
    scriptFetchedPages: outcome && outcome.kind !== 'unrendered' ? outcome.pageLinks : [],
  };
}

function formatReport(report: RenderReport): string {
  const lines = [`url         ${report.url}`];
  if (report.fetched !== report.url) lines.push(`fetched     ${report.fetched}`);
  lines.push(
    `route       ${report.route}`,
    `result      ${report.result}${report.meta.renderError ? ` [${report.meta.renderError}]` : ''}${report.meta.renderTimedOut ? ' (time limit reached; DOM as it stood)' : ''}`,
  );
  if (report.meta.renderMs) lines.push(`time        ${report.meta.renderMs} ms`);
  if (report.redirectTo)
    lines.push(`redirect to ${report.redirectTo} (by script; the scheduler fetches it as its own URL)`);
  if (report.result === 'not rendered') {
    lines.push(`links       ${report.links.before}`);
    return textLines(lines);
  }
  const refused = Object.entries(report.requests.refused)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(' · ');
  lines.push(
    `requests    sent ${report.requests.sent} · cached ${report.requests.cached} · failed ${report.requests.failed}${refused ? ` · refused: ${refused}` : ''}`,
  );
  for (const refusal of report.refusals) lines.push(`refused     ${refusal.reason.padEnd(18)} ${refusal.url}`);
  lines.push(`links       ${report.links.before} before, ${report.links.after} after rendering`);
  for (const link of report.links.added) lines.push(`new link    ${link}`);
  for (const page of report.scriptFetchedPages) lines.push(`xhr page    ${page}`);
  return textLines(lines);
}
