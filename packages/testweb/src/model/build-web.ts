import { buildBlogHost } from '../hosts/blog-host.js';
import { buildEdgeHosts, EDGE_HOST_NAMES, type EdgeHostName } from '../hosts/edge-hosts.js';
import { buildGuardedHost, GUARDED_HOST_NAMES } from '../hosts/guarded-host.js';
import { buildHostileHost, HOSTILE_HOST_NAMES } from '../hosts/hostile-host.js';
import { FULL_HOST_NAMES, type FullBuildContext, type FullHostName, type HostBuild } from '../hosts/full-context.js';
import { buildLegacyHost } from '../hosts/legacy-host.js';
import { buildMirrorHost } from '../hosts/mirror-host.js';
import { buildNewsHost } from '../hosts/news-host.js';
import { buildRenderHosts, RENDER_HOST_NAMES, type RenderHostName } from '../hosts/render-hosts.js';
import { buildShopHost } from '../hosts/shop-host.js';
import { buildSlowHost } from '../hosts/slow-host.js';
import { buildUniformHost } from '../hosts/uniform-host.js';
import type { ResolvedOptions } from '../options.js';
import type { HostModel, WebModel } from './web-model.js';

const MAX_DEPTH = 10;

const FULL_BUILDERS: Record<FullHostName, (ctx: FullBuildContext) => HostBuild> = {
  news: buildNewsHost,
  blog: buildBlogHost,
  shop: buildShopHost,
  legacy: buildLegacyHost,
  mirror: buildMirrorHost,
  slow: buildSlowHost,
};

/** The host names in listening order: host i is served at `origins[i]`. */
function hostNames(options: ResolvedOptions): string[] {
  if (options.profile === 'edge') return [...EDGE_HOST_NAMES];
  if (options.profile === 'render') return [...RENDER_HOST_NAMES];
  if (options.profile === 'hostile') return [...HOSTILE_HOST_NAMES];
  if (options.profile === 'guarded') return [...GUARDED_HOST_NAMES];
  return Array.from({ length: options.hosts }, (_, i) =>
    options.profile === 'bench' ? `bench-${i + 1}` : (FULL_HOST_NAMES[i] ?? `site-${i + 1}`),
  );
}

/** Builds the whole web for hosts already listening at `origins` (one per host name, same order). */
export function buildWebModel(options: ResolvedOptions, origins: string[]): WebModel {
  const names = hostNames(options);
  const { seed } = options;
  const uniform = (
    i: number,
    pages: number,
    pageBytes: number,
    linksPerPage: number,
    template: 'bench' | 'plain',
  ): HostModel =>
    buildUniformHost({
      name: names[i] as string,
      origin: origins[i] as string,
      seed,
      pages,
      pageBytes,
      linksPerPage,
      template,
    });

  const web: WebModel = {
    profile: options.profile,
    seed,
    maxDepth: MAX_DEPTH,
    hosts: [],
    seeds: origins.map((o) => `${o}/`),
    exactDuplicates: [],
    contentDuplicates: [],
    nearDuplicates: [],
    notNearDuplicates: [],
    detector: null,
  };
  if (options.profile === 'edge') {
    web.seeds = [];
    web.hosts = buildEdgeHosts(
      Object.fromEntries(EDGE_HOST_NAMES.map((name, i) => [name, origins[i]])) as Record<EdgeHostName, string>,
    );
    return web;
  }
  if (options.profile === 'hostile') {
    web.seeds = [];
    web.hosts = [buildHostileHost(origins[0] as string)];
    return web;
  }
  if (options.profile === 'guarded') {
    const { host, classifier } = buildGuardedHost({
      origin: origins[0] as string,
      seed,
      pages: options.pagesPerHost,
      thresholds: options.detection.thresholds,
      blockAnswer: options.detection.blockAnswer,
      now: options.detection.now,
    });
    web.hosts = [host];
    web.detector = classifier;
    return web;
  }
  if (options.profile === 'render') {
    const renderOrigins = Object.fromEntries(RENDER_HOST_NAMES.map((name, i) => [name, origins[i]])) as Record<
      RenderHostName,
      string
    >;
    web.hosts = buildRenderHosts({ seed, articles: options.pagesPerHost, origins: renderOrigins });
    return web;
  }
  if (options.profile === 'bench') {
    web.hosts = names.map((_, i) => uniform(i, options.pagesPerHost, options.pageBytes, options.linksPerPage, 'bench'));
    return web;
  }
  const ctx: FullBuildContext = {
    seed,
    pagesPerHost: options.pagesPerHost,
    origins: Object.fromEntries(FULL_HOST_NAMES.map((n, i) => [n, origins[i]])) as Record<FullHostName, string>,
  };
  for (const name of FULL_HOST_NAMES) {
    const { host, declarations } = FULL_BUILDERS[name](ctx);
    web.hosts.push(host);
    web.exactDuplicates.push(...(declarations.exactDuplicates ?? []));
    web.contentDuplicates.push(...(declarations.contentDuplicates ?? []));
    web.nearDuplicates.push(...(declarations.nearDuplicates ?? []));
    web.notNearDuplicates.push(...(declarations.notNearDuplicates ?? []));
  }
  for (let i = FULL_HOST_NAMES.length; i < names.length; i++)
    web.hosts.push(uniform(i, options.pagesPerHost, 3000, 10, 'plain'));
  return web;
}
