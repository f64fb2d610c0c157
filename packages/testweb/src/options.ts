import { InvalidOptionsError } from './errors.js';
import { EDGE_HOST_NAMES } from './hosts/edge-hosts.js';

export interface TestWebOptions {
  /** Default 1; the same seed gives byte-identical structure and content. */
  seed?: number;
  /** Default 'full'. 'edge' serves HTTP and robots.txt edge cases for fetcher tests (fixed hosts, no seeds). */
  profile?: 'full' | 'bench' | 'edge';
  /** Number of content hosts; full: default and minimum 6 (extra ones are uniform sites), bench: default 10; edge: always 6. */
  hosts?: number;
  /** Full: default 60 (minimum 30; the legacy and slow hosts keep their fixed size); bench: default 1000. */
  pagesPerHost?: number;
  /** Bench only: approximate body size in bytes, default 4096. */
  pageBytes?: number;
  /** Bench only: links on every page, default 20. */
  linksPerPage?: number;
  /** Host i listens on basePort + i; default: ports chosen by the OS. */
  basePort?: number;
}

export type ResolvedOptions = Required<Omit<TestWebOptions, 'basePort'>> & { basePort: number | undefined };

const FULL_MIN_HOSTS = 6;
const FULL_MIN_PAGES = 30;

export function resolveOptions(options: TestWebOptions = {}): ResolvedOptions {
  const profile = options.profile ?? 'full';
  if (profile !== 'full' && profile !== 'bench' && profile !== 'edge') throw new InvalidOptionsError(`unknown profile "${String(profile)}"`);
  if (profile === 'edge' && options.hosts !== undefined && options.hosts !== EDGE_HOST_NAMES.length) {
    throw new InvalidOptionsError(`the edge profile has exactly ${EDGE_HOST_NAMES.length} hosts, got hosts ${options.hosts}`);
  }
  const full = profile === 'full';
  const resolved: ResolvedOptions = {
    seed: integer('seed', options.seed ?? 1, -0x8000_0000, 0xffff_ffff),
    profile,
    hosts: profile === 'edge' ? EDGE_HOST_NAMES.length : integer('hosts', options.hosts ?? (full ? FULL_MIN_HOSTS : 10), full ? FULL_MIN_HOSTS : 1, 1000),
    pagesPerHost: integer('pagesPerHost', options.pagesPerHost ?? (full ? 60 : 1000), full ? FULL_MIN_PAGES : 1, 10_000_000),
    pageBytes: integer('pageBytes', options.pageBytes ?? 4096, 64, 100_000_000),
    linksPerPage: integer('linksPerPage', options.linksPerPage ?? 20, 0, 100_000),
    basePort: options.basePort === undefined ? undefined : integer('basePort', options.basePort, 1, 65_535),
  };
  if (resolved.basePort !== undefined && resolved.basePort + resolved.hosts - 1 > 65_535) {
    throw new InvalidOptionsError(`basePort ${resolved.basePort} leaves no room for ${resolved.hosts} hosts`);
  }
  return resolved;
}

function integer(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOptionsError(`${name} must be an integer in [${min}, ${max}], got ${value}`);
  }
  return value;
}
