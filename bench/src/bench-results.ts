import type { PeerRound } from './peer-summary.js';
import type { BedSection } from './realweb/bed-suite.js';

/** Everything one `npm run bench:all` measured: the docs page and the plots are drawn from this. */
export interface BenchResults {
  startedAt: string;
  elapsedSeconds: number;
  budgetSeconds: number;
  machine: MachineInfo;
  workload: { hosts: number; pagesPerHost: number; pages: number; concurrency: number; pageCap: number };
  peers: { specs: PeerSpec[]; rounds: PeerRound[] };
  /** The peers on the real-web bed; null when the section did not run or the bed was not up. */
  bed: BedSection | null;
  stages: StageComparison[];
  scale: ScalePoint[];
  /** The fixed set of new pages the scale curve crawls at every size. */
  scaleWorkload: { hosts: number; pagesPerHost: number };
  /** What was not measured and why (budget, stack down, not built yet). */
  skipped: { what: string; why: string }[];
}

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  os: string;
  python: string;
  versions: Record<string, string>;
  loadAverageStart: number;
  loadAverageEnd: number;
}

export interface PeerSpec {
  id: string;
  label: string;
  /** How it runs (process layout, storage). */
  how: string;
  /** Exactly how it obeys robots.txt. */
  robots: string;
}

/** One stage against its physical limit, measured side by side in the same run. */
export interface StageComparison {
  stage: string;
  /** A label short enough for the plot. */
  short?: string;
  status: 'measured' | 'gap' | 'failed';
  ours?: { what: string; perSecond: number };
  limit?: { what: string; perSecond: number };
  /** ours / limit. */
  ratio?: number;
  note?: string;
  loadAverage?: number;
}

/** Cost of crawling a fixed set of new pages with `knownUrls` already in the link base. */
export interface ScalePoint {
  mode: 'embedded' | 'stack';
  knownUrls: number;
  pages: number;
  pagesPerSecond: number;
  cpuMsPerPage: number;
  stackCpuMsPerPage?: number;
  peakRssMb: number;
  prefillSeconds: number;
  /** Starting the crawl on the pre-filled link base (loading it, for the embedded one). */
  openSeconds: number;
  loadAverage: number;
}
