import { InvalidOptionsError } from './errors.js';
import { EDGE_HOST_NAMES } from './hosts/edge-hosts.js';
import { DEFAULT_DETECTION, type DetectionThresholds } from './detection/crawler-classifier.js';
import { GUARDED_HOST_NAMES, type BlockAnswer } from './hosts/guarded-host.js';
import { HOSTILE_HOST_NAMES } from './hosts/hostile-host.js';
import { RENDER_HOST_NAMES } from './hosts/render-hosts.js';

export interface TestWebOptions {
  /** Default 1; the same seed gives byte-identical structure and content. */
  seed?: number;
  /**
   * Default 'full'. 'edge' serves HTTP and robots.txt edge cases for fetcher tests (fixed hosts, no seeds).
   * 'render' serves pages that show their links and text only after JavaScript runs (three fixed hosts).
   * 'hostile' serves answers built to hurt a crawler: endless and dripping bodies, bombs, huge pages and headers, traps (one host, no seeds).
   * 'guarded' serves one small site behind a log classifier that blacklists crawler-like /24 networks (see `detection`).
   */
  profile?: 'full' | 'bench' | 'edge' | 'render' | 'hostile' | 'guarded';
  /** Number of content hosts; full: default and minimum 6 (extra ones are uniform sites), bench: default 10; edge: always 6; render: always 3; hostile: always 1. */
  hosts?: number;
  /** Full: default 60 (minimum 30; the legacy and slow hosts keep their fixed size); bench: default 1000; render: plain articles of the mixed host, default 24 (minimum 8). */
  pagesPerHost?: number;
  /** Bench only: approximate body size in bytes, default 4096. */
  pageBytes?: number;
  /** Bench only: links on every page, default 20. */
  linksPerPage?: number;
  /** Host i listens on basePort + i; default: ports chosen by the OS. */
  basePort?: number;
  /** Guarded only: the classifier's window and thresholds (DEFAULT_DETECTION), what a blacklisted network gets, and its clock. */
  detection?: Partial<DetectionThresholds> & { blockAnswer?: BlockAnswer; now?: () => number };
}

export interface ResolvedDetection {
  thresholds: DetectionThresholds;
  blockAnswer: BlockAnswer;
  now: (() => number) | undefined;
}

export type ResolvedOptions = Required<Omit<TestWebOptions, 'basePort' | 'detection'>> & {
  basePort: number | undefined;
  detection: ResolvedDetection;
};

const PROFILES = new Set<string>(['full', 'bench', 'edge', 'render', 'hostile', 'guarded']);
const FIXED_HOSTS: Partial<Record<ResolvedOptions['profile'], number>> = {
  edge: EDGE_HOST_NAMES.length,
  render: RENDER_HOST_NAMES.length,
  hostile: HOSTILE_HOST_NAMES.length,
  guarded: GUARDED_HOST_NAMES.length,
};
export const FULL_MIN_HOSTS = 6;
export const FULL_MIN_PAGES = 30;
const RENDER_DEFAULT_PAGES = 24;
const RENDER_MIN_PAGES = 8;
const GUARDED_DEFAULT_PAGES = 16;

export function resolveOptions(options: TestWebOptions = {}): ResolvedOptions {
  const profile = options.profile ?? 'full';
  if (!PROFILES.has(profile)) throw new InvalidOptionsError(`unknown profile "${String(profile)}"`);
  const fixedHosts = FIXED_HOSTS[profile] ?? null;
  if (fixedHosts !== null && options.hosts !== undefined && options.hosts !== fixedHosts) {
    throw new InvalidOptionsError(`the ${profile} profile has exactly ${fixedHosts} hosts, got hosts ${options.hosts}`);
  }
  const full = profile === 'full';
  const render = profile === 'render';
  const guarded = profile === 'guarded';
  const resolved: ResolvedOptions = {
    seed: integer('seed', options.seed ?? 1, -0x8000_0000, 0xffff_ffff),
    profile,
    hosts:
      fixedHosts ?? integer('hosts', options.hosts ?? (full ? FULL_MIN_HOSTS : 10), full ? FULL_MIN_HOSTS : 1, 1000),
    pagesPerHost: integer(
      'pagesPerHost',
      options.pagesPerHost ?? (full ? 60 : render ? RENDER_DEFAULT_PAGES : guarded ? GUARDED_DEFAULT_PAGES : 1000),
      full ? FULL_MIN_PAGES : render || guarded ? RENDER_MIN_PAGES : 1,
      10_000_000,
    ),
    pageBytes: integer('pageBytes', options.pageBytes ?? 4096, 64, 100_000_000),
    linksPerPage: integer('linksPerPage', options.linksPerPage ?? 20, 0, 100_000),
    basePort: options.basePort === undefined ? undefined : integer('basePort', options.basePort, 1, 65_535),
    detection: resolveDetection(options.detection ?? {}),
  };
  if (resolved.basePort !== undefined && resolved.basePort + resolved.hosts - 1 > 65_535) {
    throw new InvalidOptionsError(`basePort ${resolved.basePort} leaves no room for ${resolved.hosts} hosts`);
  }
  return resolved;
}

function resolveDetection(given: NonNullable<TestWebOptions['detection']>): ResolvedDetection {
  const { blockAnswer = 'challenge', now, ...thresholds } = given;
  if (blockAnswer !== 'challenge' && blockAnswer !== 'forbidden')
    throw new InvalidOptionsError(`detection.blockAnswer must be challenge or forbidden, got ${String(blockAnswer)}`);
  const resolved = { ...DEFAULT_DETECTION, ...thresholds };
  for (const [name, value] of Object.entries(resolved)) integer(`detection.${name}`, value, 1, 1_000_000_000);
  return { thresholds: resolved, blockAnswer, now };
}

function integer(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOptionsError(`${name} must be an integer in [${min}, ${max}], got ${value}`);
  }
  return value;
}
