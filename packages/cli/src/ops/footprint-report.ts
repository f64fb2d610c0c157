import { FOOTPRINT_KEEP_MS, type FootprintWindow } from '@crawler/core';
import { formatTable } from './format.js';

const MINUTE = 60_000;

/** One site's 10-minute window from one egress network, measured as the site measures visitors. */
export interface FootprintRow extends FootprintWindow {
  /** Page requests per minute over the time the crawler was active in the window (at least a minute). */
  pagesPerMinute: number;
  /** Mean time between two page requests (last minus first, over pages minus one). */
  meanIntervalMs: number | null;
  /** Attachments (scripts, stylesheets, a rendering page's fetches) among all requests. */
  attachmentShare: number;
}

/** A site as one of our networks touched it over every window read. */
export interface SiteFootprint {
  site: string;
  network: string;
  windows: number;
  requests: number;
  /** Total pages: what a site's "pages visited" counts. */
  pages: number;
  attachments: number;
  /** The most pages in one window, and the fastest window's pages per minute. */
  busiestWindowPages: number;
  peakPagesPerMinute: number;
  /** The shortest mean interval of a window with at least two pages, and the shortest single interval. */
  meanIntervalMs: number | null;
  minIntervalMs: number | null;
}

export interface NetworkFootprint {
  network: string;
  sites: number;
  requests: number;
  pages: number;
  attachments: number;
}

export interface FootprintReport {
  windows: FootprintRow[];
  sites: SiteFootprint[];
  networks: NetworkFootprint[];
}

export function summarizeFootprint(windows: FootprintWindow[]): FootprintReport {
  const rows = windows.map((window): FootprintRow => {
    const span = window.firstPageAt !== null && window.lastPageAt !== null ? window.lastPageAt - window.firstPageAt : 0;
    return {
      ...window,
      pagesPerMinute: round(window.pages / Math.max(1, span / MINUTE)),
      meanIntervalMs: window.pages >= 2 ? Math.round(span / (window.pages - 1)) : null,
      attachmentShare: window.requests > 0 ? round(window.attachments / window.requests) : 0,
    };
  });
  const sites = new Map<string, SiteFootprint>();
  for (const row of rows) {
    const key = `${row.site}\u0000${row.network}`;
    const site = sites.get(key) ?? {
      site: row.site,
      network: row.network,
      windows: 0,
      requests: 0,
      pages: 0,
      attachments: 0,
      busiestWindowPages: 0,
      peakPagesPerMinute: 0,
      meanIntervalMs: null,
      minIntervalMs: null,
    };
    site.windows++;
    site.requests += row.requests;
    site.pages += row.pages;
    site.attachments += row.attachments;
    site.busiestWindowPages = Math.max(site.busiestWindowPages, row.pages);
    site.peakPagesPerMinute = Math.max(site.peakPagesPerMinute, row.pagesPerMinute);
    site.meanIntervalMs = least(site.meanIntervalMs, row.meanIntervalMs);
    site.minIntervalMs = least(site.minIntervalMs, row.minIntervalMs);
    sites.set(key, site);
  }
  const networks = new Map<string, NetworkFootprint>();
  for (const site of sites.values()) {
    const network = networks.get(site.network) ?? {
      network: site.network,
      sites: 0,
      requests: 0,
      pages: 0,
      attachments: 0,
    };
    network.sites++;
    network.requests += site.requests;
    network.pages += site.pages;
    network.attachments += site.attachments;
    networks.set(site.network, network);
  }
  return {
    windows: rows,
    sites: [...sites.values()].sort((a, b) => b.pages - a.pages || a.site.localeCompare(b.site)),
    networks: [...networks.values()].sort((a, b) => b.requests - a.requests),
  };
}

/** The report as the command prints it: networks, then sites, then every window. */
export function formatFootprint(report: FootprintReport): string {
  if (report.windows.length === 0) return 'no requests recorded in the last 48 hours\n';
  const seconds = (ms: number | null) => (ms === null ? '-' : (ms / 1000).toFixed(ms < 10_000 ? 2 : 1));
  const share = (value: number) => `${Math.round(value * 100)}%`;
  const time = (at: number) => new Date(at).toISOString().slice(0, 16).replace('T', ' ');
  return [
    'egress networks (as sites group us: IPv4 /24, IPv6 /48)',
    formatTable(
      ['network', 'sites', 'requests', 'pages', 'attachments'],
      report.networks.map((network) => [
        network.network,
        network.sites,
        network.requests,
        network.pages,
        network.attachments,
      ]),
      '  ',
    ),
    '',
    'sites (over the windows read)',
    formatTable(
      ['site', 'network', 'requests', 'pages', 'attach', 'max pages/10min', 'peak pages/min', 'mean s', 'min s'],
      report.sites.map((site) => [
        site.site,
        site.network,
        site.requests,
        site.pages,
        share(site.requests > 0 ? site.attachments / site.requests : 0),
        site.busiestWindowPages,
        site.peakPagesPerMinute,
        seconds(site.meanIntervalMs),
        seconds(site.minIntervalMs),
      ]),
      '  ',
    ),
    '',
    '10-minute windows (UTC)',
    formatTable(
      ['window', 'site', 'network', 'requests', 'pages', 'pages/min', 'mean s', 'min s', 'attach'],
      report.windows.map((row) => [
        time(row.start),
        row.site,
        row.network,
        row.requests,
        row.pages,
        row.pagesPerMinute,
        seconds(row.meanIntervalMs),
        seconds(row.minIntervalMs),
        share(row.attachmentShare),
      ]),
      '  ',
    ),
    '',
  ].join('\n');
}

/** Windows of one site, network and start added up (earliest first page, latest last, shortest interval); older than 48 h dropped. */
export function mergeWindows(windows: FootprintWindow[], now: number): FootprintWindow[] {
  const merged = new Map<string, FootprintWindow>();
  for (const window of windows) {
    if (window.start < now - FOOTPRINT_KEEP_MS) continue;
    const key = `${window.site}\u0000${window.network}\u0000${window.start}`;
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, { ...window });
      continue;
    }
    seen.requests += window.requests;
    seen.pages += window.pages;
    seen.attachments += window.attachments;
    seen.firstPageAt = least(seen.firstPageAt, window.firstPageAt);
    seen.lastPageAt = most(seen.lastPageAt, window.lastPageAt);
    seen.minIntervalMs = least(seen.minIntervalMs, window.minIntervalMs);
  }
  return [...merged.values()].sort((a, b) => a.start - b.start || a.site.localeCompare(b.site));
}

function most(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

function least(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
