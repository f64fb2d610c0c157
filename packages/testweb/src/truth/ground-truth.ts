import type {
  CharsetDeclaration,
  CharsetName,
  DuplicateDeclarations,
  ErrorStatus,
  RedirectStatus,
} from '../model/web-model.js';

/**
 * What a correct crawler experiences on the synthetic web in one round, starting from the seeds and
 * following only <a href>, <area href>, <frame src>, <iframe src>, meta refresh and HTTP redirects,
 * obeying robots.txt for "*" (no group names a "crawler" agent), within `maxDepth` link hops
 * (redirects do not add a hop; meta refresh does) and never expanding trap pages. In the full
 * profile every page is within 3 hops of a seed, so other depth conventions find the same pages.
 * All URLs are canonical: WHATWG href without fragment. URL lists are sorted by host (in `hosts`
 * order), then path, so the order is the same whatever ports the hosts listen on.
 */
export interface GroundTruth extends DuplicateDeclarations {
  round: number;
  maxDepth: number;
  /** The crawler should fetch at most this many URLs under each trap prefix. */
  trapBudget: number;
  hosts: { name: string; origin: string }[];
  seeds: string[];
  /**
   * URLs that answer 200 with a complete HTML page (after retries for `flaky`, after the wait for
   * `slow`). Includes meta-refresh pages (they answer 200 HTML); excludes traps and `endless`.
   */
  pages: string[];
  /** Linked from reachable pages but disallowed by robots.txt: the crawler must send them no request. */
  disallowed: string[];
  redirects: { from: string; to: string; status: RedirectStatus | 'meta-refresh' }[];
  /** Reachable URLs from which following redirects never reaches a non-redirect. */
  redirectLoops: string[];
  /** Reachable URLs that answer this status on every request of the round. */
  errors: { url: string; status: ErrorStatus }[];
  /** Answer `status` for the first `failures` requests of the round, then 200; 429 carries Retry-After: 1. */
  flaky: { url: string; failures: number; status: 429 | 503; finalStatus: 200 }[];
  /** Headers arrive after `delayMs`; these are also in `pages`. */
  slow: { url: string; delayMs: number }[];
  /** 200 text/html whose body never ends. */
  endless: string[];
  nonHtml: { url: string; contentType: string }[];
  /** Pages in a legacy encoding; `sampleText` is a phrase of the decoded visible text. Also in `pages`. */
  charsets: { url: string; charset: CharsetName; declared: CharsetDeclaration; sampleText: string }[];
  traps: { prefix: string; description: string }[];
  /** Sitemap URLs announced in robots.txt files. */
  sitemaps: string[];
  /** Every sitemap document served (announced ones, and those a sitemap index lists). */
  sitemapFiles: string[];
  /** `host` is the origin, e.g. "http://127.0.0.1:4100". */
  crawlDelays: { host: string; seconds: number }[];
  /** Origins whose pages carry ETag and Last-Modified and answer conditional requests with 304. */
  validatorHosts: string[];
  /** Pages whose main content (the <main> element) differs from the previous round. */
  changed: string[];
  changeRates: { url: string; probability: number }[];
  /** What scripts do (render profile; every list is empty in the other profiles). */
  rendering: RenderingTruth;
}

/**
 * The render profile's pages as a crawler that runs scripts sees them. `pages` above already
 * includes what only scripts reveal (script-created links followed like <a href>, HTML pages that
 * scripts fetch, targets of script redirects); script-redirect pages themselves are not pages.
 * Every page not listed under shells, enhanced or inert is plain: rendering it changes nothing.
 */
export interface RenderingTruth {
  /** Pages whose HTML is a script shell (little text, a script builds or moves the page): a crawler that detects shells renders them. */
  shells: string[];
  /** Complete pages whose script adds links, found only with a per-site rule: after load, after `steps` scrolls to the end, or after `steps` clicks on `selector`. */
  enhanced: { url: string; trigger: 'load' | 'scroll' | 'click'; steps: number; selector: string | null }[];
  /** Pages that look like shells but whose script changes neither links nor text. */
  inert: string[];
  /** Location changes a page's script makes on load; `from` answers 200 but is a redirect, not a page. */
  jsRedirects: { from: string; to: string }[];
  /** HTML pages that only scripts request (fetch/XHR); no page links to them. */
  fetchedByScripts: string[];
  /** Pages (in `pages`) a crawler that does not run scripts cannot reach. */
  onlyRendered: string[];
  /** Off-machine URLs scripts try to load (private, link-local and documentation ranges): a crawler must send them nothing. */
  offMachine: string[];
}
