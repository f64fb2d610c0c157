import type { CrawlerClassifier } from '../detection/crawler-classifier.js';
import type { GroundTruth } from '../truth/ground-truth.js';

// The single data model of the synthetic web: the HTTP handler serves it and the ground truth is
// computed from it, so the two cannot drift apart.

export type LinkKind = 'a' | 'area' | 'frame' | 'iframe';
export type LinkPlacement = 'nav' | 'main' | 'footer';

export interface Link {
  /** The attribute value as written in the HTML (before entity escaping). */
  href: string;
  /** The canonical absolute URL the author meant; tests check that `href` resolves to it. */
  target: string;
  text: string;
  kind: LinkKind;
  placement: LinkPlacement;
}

export type TemplateName = 'news' | 'blog' | 'docs' | 'shop' | 'legacy' | 'plain' | 'bench' | 'app' | 'scripted';
export type CharsetName = 'gbk' | 'gb18030' | 'big5' | 'shift_jis' | 'windows-1252';
export type CharsetDeclaration = 'header' | 'meta' | 'none';

/** Main content: pages sharing a key show the same text and change in the same rounds. */
export interface Content {
  key: string;
  changeRate: number;
  /** Paragraphs of one edition; the edition is the round in which the content last changed. */
  paragraphs(edition: number): string[];
}

export interface PageSpec {
  title: string;
  template: TemplateName;
  layout: 'standard' | 'frameset' | 'broken';
  content: Content;
  links: Link[];
  baseHref?: string;
  metaRefresh?: { href: string; target: string };
  canonical?: string;
  charset?: { name: CharsetName; declared: CharsetDeclaration; sampleText: string };
  lang?: string;
  /** Link-like markup a crawler must not follow (inside comments or scripts). */
  decoyMarkup?: string;
  trap?: boolean;
  /** What the page's script does in a browser (render profile); absent: the page has no effective script. */
  script?: PageScript;
}

/**
 * A page's script, as the model knows it (render profile). shell: the HTML is an empty app root and
 * the script builds the page from /api data; enhanced: a complete page whose script adds links;
 * redirect: the script changes location on load; inert: looks like a shell (little text, a heavy
 * inline script, an app root) but the script changes neither links nor text.
 */
export interface PageScript {
  role: 'shell' | 'enhanced' | 'redirect' | 'inert';
  /** Path (and query) of the JSON the script reads its content or links from. */
  data: string;
  /** Links that exist only once the script ran. */
  links: Link[];
  /** What brings them: running the script, scrolling to the end, or clicking the "load more" button. */
  trigger: 'load' | 'scroll' | 'click';
  /** Batches the links arrive in: the scrolls or clicks needed to see them all. */
  steps: number;
  /** role redirect: where the script sends the browser (href as written, canonical target). */
  redirect?: { href: string; target: string };
  /** URLs the script requests with fetch() besides its own data: HTML pages, or paths robots.txt forbids. */
  fetches: string[];
  /** Off-machine URLs the script tries to load (script, image, fetch); a crawler must send them nothing. */
  offMachine: { url: string; as: 'script' | 'img' | 'fetch' }[];
}

export type RedirectStatus = 301 | 302 | 307 | 308;
export type ErrorStatus = 404 | 410 | 429 | 500 | 503;

/** What a raw answer may depend on: the request's headers and the time it arrived. */
export interface RawRequest {
  headers: Record<string, string | string[] | undefined>;
  now: number;
}

/** An answer written out byte for byte (edge profile): any status, any headers, any body. */
export interface RawAnswer {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: Buffer;
  /** Wait this long before answering (a site that answers slowly). */
  delayMs?: number;
}

/**
 * Bytes written straight to the socket (hostile profile), for answers no HTTP server library would
 * send: `head` at once, then `drip` `chunkBytes` at a time every `intervalMs`, then the socket ends.
 */
export interface WireAnswer {
  head: Buffer;
  drip: Buffer;
  chunkBytes: number;
  intervalMs: number;
}

export interface FileContext {
  round: number;
  /** The ground truth of the round; robots.txt bodies must not call it (the truth reads them). */
  truth(): GroundTruth;
}

export type Resource =
  | { kind: 'page'; page: PageSpec }
  | { kind: 'slow'; page: PageSpec; delayMs: number }
  | { kind: 'flaky'; page: PageSpec; failures: number; status: 429 | 503 }
  | { kind: 'redirect'; status: RedirectStatus; location: string; target: string }
  | { kind: 'error'; status: ErrorStatus }
  | { kind: 'endless' }
  | { kind: 'file'; contentType: string; body(context: FileContext): Buffer; sitemap?: true }
  | { kind: 'raw'; answer(request: RawRequest): RawAnswer }
  | { kind: 'wire'; answer: WireAnswer };

/** A request as a site's front door sees it: who asks, for what, when. */
export interface GuardedRequest {
  remote: string;
  path: string;
  now: number;
}

export interface HostModel {
  name: string;
  origin: string;
  /** Keyed by canonical path plus query, e.g. "/article/7?print=1". */
  resources: Map<string, Resource>;
  /** Pages generated on demand, for URL spaces too large to list (traps). */
  route?: (pathAndQuery: string) => Resource | undefined;
  traps: { prefix: string; description: string }[];
  /** Template noise (timestamps, counters, rotating boxes) on every page; such hosts send no validators. */
  noise: boolean;
  /** ETag and Last-Modified on pages, with 304 answers to conditional requests. */
  validators: boolean;
  /** Root paths the rotating "related" box picks from; all are reachable pages anyway. */
  relatedPool: string[];
  /** Sees every request before it is served; an answer given here replaces the resource (a site that blocks a visitor). */
  guard?: (request: GuardedRequest) => RawAnswer | null;
}

export interface DuplicateDeclarations {
  exactDuplicates: string[][];
  contentDuplicates: string[][];
  nearDuplicates: { a: string; b: string; kind: 'reprint-other-template' | 'small-edit' | 'noise-only' }[];
  notNearDuplicates: { a: string; b: string; kind: 'short-items-same-template' | 'different-articles' }[];
}

export interface WebModel extends DuplicateDeclarations {
  profile: 'full' | 'bench' | 'edge' | 'render' | 'hostile' | 'guarded';
  seed: number;
  maxDepth: number;
  hosts: HostModel[];
  seeds: string[];
  /** Guarded profile: the log classifier in front of its host (null in the other profiles). */
  detector: CrawlerClassifier | null;
}

export function findResource(host: HostModel, pathAndQuery: string): Resource | undefined {
  return host.resources.get(pathAndQuery) ?? host.route?.(pathAndQuery);
}
