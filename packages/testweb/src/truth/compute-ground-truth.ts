import { canonicalizeUrl } from '../canonical-url.js';
import { ModelError } from '../errors.js';
import { changesInRound } from '../model/content-editions.js';
import { findResource, type HostModel, type PageSpec, type WebModel } from '../model/web-model.js';
import { createRobotsPolicy, type RobotsPolicy } from '../robots-policy.js';
import { parseRobotsTxt } from '../robots-txt.js';
import type { GroundTruth } from './ground-truth.js';
import { outgoingUrls } from './outgoing-urls.js';
import { pagesWithoutScripts } from './plain-reach.js';

const TRAP_BUDGET = 20;

/** Crawls the model (not the server) breadth-first, exactly as the GroundTruth contract describes. */
export function computeGroundTruth(web: WebModel, round: number): GroundTruth {
  const hostsByOrigin = new Map(web.hosts.map((h) => [h.origin, h]));
  const policies = new Map(web.hosts.map((h) => [h.origin, readRobots(h, round)]));
  const truth = emptyTruth(web, round);
  const redirectTargets = new Map<string, string>();
  const depthOf = new Map<string, number>();
  const done = new Set<string>();
  let level = web.seeds.slice();
  web.seeds.forEach((s) => depthOf.set(s, 0));

  for (let depth = 0; depth <= web.maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    const discover = (url: string, at: number): void => {
      if (at > web.maxDepth || (depthOf.get(url) ?? Infinity) <= at) return;
      depthOf.set(url, at);
      (at === depth ? level : next).push(url);
    };
    for (let i = 0; i < level.length; i++) {
      const url = level[i] as string;
      if (done.has(url) || depthOf.get(url) !== depth) continue;
      done.add(url);
      const parsed = new URL(url);
      const host = hostsByOrigin.get(parsed.origin);
      if (!host) throw new ModelError(`link to a host outside the web: ${url}`);
      const pathAndQuery = `${parsed.pathname}${parsed.search}`;
      if (!policies.get(host.origin)!.policy.isAllowed(pathAndQuery)) {
        truth.disallowed.push(url);
        continue;
      }
      const resource = findResource(host, pathAndQuery);
      if (!resource) throw new ModelError(`link to a missing resource: ${url}`);
      switch (resource.kind) {
        case 'redirect': {
          const to = canonicalizeUrl(resource.location, url) as string;
          truth.redirects.push({ from: url, to, status: resource.status });
          redirectTargets.set(url, to);
          discover(to, depth);
          break;
        }
        case 'error':
          truth.errors.push({ url, status: resource.status });
          break;
        case 'endless':
          truth.endless.push(url);
          break;
        case 'file':
          truth.nonHtml.push({ url, contentType: resource.contentType });
          break;
        case 'raw':
        case 'wire':
          // Raw and wire answers are edge cases for fetcher tests, requested directly: never linked.
          throw new ModelError(`link to a raw edge-case resource: ${url}`);
        case 'page':
        case 'slow':
        case 'flaky': {
          if (resource.page.trap) break;
          const redirect = resource.page.script?.redirect;
          if (redirect) {
            // A script redirect is a redirect: the target keeps the depth and the page is not one.
            truth.rendering.jsRedirects.push({ from: url, to: redirect.target });
            truth.rendering.shells.push(url);
            discover(redirect.target, depth);
            break;
          }
          if (resource.kind === 'slow') truth.slow.push({ url, delayMs: resource.delayMs });
          if (resource.kind === 'flaky') {
            truth.flaky.push({ url, failures: resource.failures, status: resource.status, finalStatus: 200 });
          }
          recordPage(truth, web, url, resource.page, round);
          recordScript(truth, url, resource.page);
          for (const target of outgoingUrls(url, resource.page)) discover(target, depth + 1);
          for (const target of scriptUrls(url, resource.page)) discover(target, depth + 1);
          if (resource.page.metaRefresh) {
            const to = canonicalizeUrl(resource.page.metaRefresh.href, url) as string;
            truth.redirects.push({ from: url, to, status: 'meta-refresh' });
            discover(to, depth + 1);
          }
          break;
        }
      }
    }
    level = next;
  }

  truth.redirectLoops = [...redirectTargets.keys()].filter((from) => redirectsForever(from, redirectTargets));
  for (const host of web.hosts) {
    const { policy, sitemaps } = policies.get(host.origin)!;
    truth.sitemaps.push(...sitemaps);
    for (const [path, resource] of host.resources)
      if (resource.kind === 'file' && resource.sitemap) truth.sitemapFiles.push(`${host.origin}${path}`);
    if (policy.crawlDelay !== undefined) truth.crawlDelays.push({ host: host.origin, seconds: policy.crawlDelay });
    if (host.validators) truth.validatorHosts.push(host.origin);
    truth.traps.push(...host.traps);
  }
  checkDeclarations(truth);
  if (web.profile === 'render') {
    const plain = pagesWithoutScripts(web, (origin) => policies.get(origin)!.policy);
    truth.rendering.onlyRendered = truth.pages.filter((page) => !plain.has(page));
    const pages = new Set(truth.pages);
    truth.rendering.fetchedByScripts = truth.rendering.fetchedByScripts.filter((url) => pages.has(url));
  }
  return sortTruth(truth);
}

function readRobots(host: HostModel, round: number): { policy: RobotsPolicy; sitemaps: string[] } {
  const resource = findResource(host, '/robots.txt');
  if (resource?.kind !== 'file') return { policy: createRobotsPolicy(undefined, 'crawler'), sitemaps: [] };
  const text = resource
    .body({
      round,
      truth: () => {
        throw new ModelError('robots.txt must not depend on the ground truth');
      },
    })
    .toString('utf8');
  const robots = parseRobotsTxt(text);
  return { policy: createRobotsPolicy(robots, 'crawler'), sitemaps: robots.sitemaps };
}

/** Links a page's script creates and the URLs it fetches; a crawler finds them only by running it. */
function scriptUrls(url: string, page: PageSpec): string[] {
  if (!page.script) return [];
  const links = page.script.links
    .map((link) => canonicalizeUrl(link.href, url))
    .filter((target): target is string => target !== undefined);
  return [...links, ...page.script.fetches];
}

function recordScript(truth: GroundTruth, url: string, page: PageSpec): void {
  const script = page.script;
  if (!script) return;
  if (script.role === 'shell') truth.rendering.shells.push(url);
  if (script.role === 'inert') truth.rendering.inert.push(url);
  if (script.role === 'enhanced')
    truth.rendering.enhanced.push({
      url,
      trigger: script.trigger,
      steps: script.steps,
      selector: script.trigger === 'click' ? '#load-more' : null,
    });
  truth.rendering.fetchedByScripts.push(...script.fetches);
  truth.rendering.offMachine.push(...script.offMachine.map((item) => item.url));
}

function recordPage(truth: GroundTruth, web: WebModel, url: string, page: PageSpec, round: number): void {
  truth.pages.push(url);
  const { key, changeRate } = page.content;
  truth.changeRates.push({ url, probability: changeRate });
  if (changesInRound(web.seed, key, changeRate, round)) truth.changed.push(url);
  if (page.charset) {
    const { name, declared, sampleText } = page.charset;
    truth.charsets.push({ url, charset: name, declared, sampleText });
  }
}

function redirectsForever(start: string, targets: Map<string, string>): boolean {
  const seen = new Set<string>();
  let current: string | undefined = start;
  while (current !== undefined) {
    if (seen.has(current)) return true;
    seen.add(current);
    current = targets.get(current);
  }
  return false;
}

// Duplicate declarations are hand-written by the host builders; each URL must be a real page.
function checkDeclarations(truth: GroundTruth): void {
  const pages = new Set(truth.pages);
  const urls = [
    ...truth.exactDuplicates.flat(),
    ...truth.contentDuplicates.flat(),
    ...truth.nearDuplicates.flatMap((p) => [p.a, p.b]),
    ...truth.notNearDuplicates.flatMap((p) => [p.a, p.b]),
  ];
  const missing = urls.filter((u) => !pages.has(u));
  if (missing.length > 0) throw new ModelError(`duplicate declarations name non-pages: ${missing.join(', ')}`);
}

function emptyTruth(web: WebModel, round: number): GroundTruth {
  return {
    round,
    maxDepth: web.maxDepth,
    trapBudget: TRAP_BUDGET,
    hosts: web.hosts.map((h) => ({ name: h.name, origin: h.origin })),
    seeds: web.seeds.slice(),
    pages: [],
    disallowed: [],
    redirects: [],
    redirectLoops: [],
    errors: [],
    flaky: [],
    slow: [],
    endless: [],
    nonHtml: [],
    charsets: [],
    exactDuplicates: web.exactDuplicates.map((group) => group.slice()),
    contentDuplicates: web.contentDuplicates.map((group) => group.slice()),
    nearDuplicates: web.nearDuplicates.map((pair) => ({ ...pair })),
    notNearDuplicates: web.notNearDuplicates.map((pair) => ({ ...pair })),
    traps: [],
    sitemaps: [],
    sitemapFiles: [],
    crawlDelays: [],
    validatorHosts: [],
    changed: [],
    changeRates: [],
    rendering: {
      shells: [],
      enhanced: [],
      inert: [],
      jsRedirects: [],
      fetchedByScripts: [],
      onlyRendered: [],
      offMachine: [],
    },
  };
}

// Sorted by host order then path, not by raw URL, so the order does not depend on the ports.
function sortTruth(truth: GroundTruth): GroundTruth {
  const hostIndex = new Map(truth.hosts.map((h, i) => [h.origin, String(i).padStart(4, '0')]));
  const keys = new Map<string, string>();
  const keyOf = (url: string): string => {
    let key = keys.get(url);
    if (key === undefined) {
      const slash = url.indexOf('/', url.indexOf('//') + 2);
      key = `${hostIndex.get(url.slice(0, slash)) ?? url}${url.slice(slash)}`;
      keys.set(url, key);
    }
    return key;
  };
  const compare = (a: string, b: string): number => {
    const [ka, kb] = [keyOf(a), keyOf(b)];
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };
  const byUrl = <T extends { url: string }>(a: T, b: T): number => compare(a.url, b.url);
  truth.pages.sort(compare);
  truth.disallowed.sort(compare);
  truth.redirects.sort((a, b) => compare(a.from, b.from));
  truth.redirectLoops.sort(compare);
  truth.errors.sort(byUrl);
  truth.flaky.sort(byUrl);
  truth.slow.sort(byUrl);
  truth.endless.sort(compare);
  truth.sitemapFiles.sort(compare);
  truth.nonHtml.sort(byUrl);
  truth.charsets.sort(byUrl);
  truth.changed.sort(compare);
  truth.changeRates.sort(byUrl);
  const { rendering } = truth;
  for (const list of [rendering.shells, rendering.inert, rendering.onlyRendered, rendering.offMachine])
    list.sort(compare);
  rendering.fetchedByScripts = [...new Set(rendering.fetchedByScripts)].sort(compare);
  rendering.enhanced.sort(byUrl);
  rendering.jsRedirects.sort((a, b) => compare(a.from, b.from));
  return truth;
}
