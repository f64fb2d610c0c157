import { createHash } from 'node:crypto';
import type { SharedPacing } from '../politeness/shared-pacing.js';
import type { SiteHolds } from '../politeness/site-holds.js';
import { recognizeChallenge } from './recognize-challenge.js';

/** What showed that a site blocks us. */
export type BlockSignal = 'challenge' | 'captcha' | 'denials' | 'collapse';

export interface BlockVerdict {
  signal: BlockSignal;
  /** How long the site is left alone before one probe. */
  blockedForMs: number;
  /** Blocks in a row, this one included. */
  streak: number;
}

export interface SiteBlocksOptions {
  backoffMs: number;
  maxBackoffMs: number;
  holds: SiteHolds;
  /** Shares blocks with every fetcher; null: this process only. */
  shared: SharedPacing | null;
  /** Each block recognized, by its signal; each block lifted by a probe. */
  onBlock?(site: string, verdict: BlockVerdict): void;
  onUnblock?(site: string): void;
}

/** A page answer, as far as recognizing a block needs it. */
export interface PageAnswer {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface Recent {
  url: string;
  status: number;
  /** Digest of a small 2xx body (null otherwise). */
  digest: string | null;
}

/** Answers remembered per site. */
const WINDOW = 8;
/** 403s and 429s among them that make a burst. */
const DENIALS = 5;
/** Small identical 2xx bodies in a row, for distinct URLs, that make a collapse. */
const COLLAPSED = 4;
/** A body under this is "tiny": a placeholder, not a page. */
const TINY_BYTES = 2048;
const MAX_SITES = 50_000;

/**
 * Recognizes that a site blocks us, from the pages it answers: a challenge or CAPTCHA page (any
 * status, 200 included) at once; a burst of 403/429 (5 of its last 8 answers); or content that
 * collapses to one tiny body for different URLs after the site served real pages. A blocked site
 * is left alone for FETCHER_BLOCK_BACKOFF_MS, doubling with each block in a row up to
 * FETCHER_MAX_BLOCK_BACKOFF_MS, then probed with one request: a normal answer lifts the block,
 * anything that still looks like a block renews it. Detection only: nothing is changed to get
 * past the block. Answers are counted per process; the block itself is shared.
 */
export class SiteBlocks {
  private readonly recent = new Map<string, Recent[]>();
  /** Sites that served a real page (more than a tiny body): only they can collapse. */
  private readonly servedContent = new Set<string>();
  /** Blocks in a row of the sites this process saw blocked, until a probe lifts them. */
  private readonly streaks = new Map<string, number>();

  constructor(private readonly options: SiteBlocksOptions) {}

  /**
   * What a page answer says. `probe`: this request was the one probe of a block that ran out;
   * `blockStreak`: the blocks in a row the site already had.
   */
  observe(site: string, answer: PageAnswer, probe: boolean, blockStreak: number): BlockVerdict | null {
    const signal = this.signalOf(site, answer, probe);
    if (signal) {
      // Answers to requests that were in flight when the block was recognized: the same block, not another.
      const held = this.options.holds.heldFor(site);
      if (!probe && held?.reason === 'block')
        return { signal, blockedForMs: held.remainingMs, streak: this.streaks.get(site) ?? 1 };
      return this.block(site, signal, Math.max(blockStreak, this.streaks.get(site) ?? 0));
    }
    if (probe || this.options.holds.has(site, 'block')) this.unblock(site);
    return null;
  }

  private signalOf(site: string, answer: PageAnswer, probe: boolean): BlockSignal | null {
    const challenge = recognizeChallenge(answer.headers, answer.body);
    if (challenge) return challenge;
    const ok = answer.status >= 200 && answer.status < 300;
    const tiny = ok && answer.body.length < TINY_BYTES;
    const digest = tiny ? createHash('sha1').update(answer.body).digest('base64') : null;
    const denied = answer.status === 403 || answer.status === 429;
    let recent = this.recent.get(site);
    // The probe's answer alone decides: one more denial, or the same placeholder again, keeps the block.
    if (probe) return denied ? 'denials' : digest !== null && recent?.at(-1)?.digest === digest ? 'collapse' : null;
    if (ok && !tiny) this.servedContent.add(site);
    if (!recent) {
      recent = [];
      if (this.recent.size >= MAX_SITES) {
        const oldest = this.recent.keys().next().value as string;
        this.recent.delete(oldest);
        this.servedContent.delete(oldest);
      }
    }
    this.recent.delete(site);
    this.recent.set(site, recent);
    recent.push({ url: answer.url, status: answer.status, digest });
    if (recent.length > WINDOW) recent.shift();
    if (recent.filter((entry) => entry.status === 403 || entry.status === 429).length >= DENIALS) return 'denials';
    const last = recent.slice(-COLLAPSED);
    if (
      this.servedContent.has(site) &&
      last.length === COLLAPSED &&
      last.every((entry) => entry.digest !== null && entry.digest === last[0]!.digest) &&
      new Set(last.map((entry) => entry.url)).size === COLLAPSED
    )
      return 'collapse';
    return null;
  }

  private block(site: string, signal: BlockSignal, blockStreak: number): BlockVerdict {
    const { options } = this;
    const streak = blockStreak + 1;
    const blockedForMs = Math.min(options.maxBackoffMs, options.backoffMs * 2 ** Math.min(streak - 1, 30));
    options.holds.hold(site, blockedForMs, 'block');
    this.streaks.delete(site);
    this.streaks.set(site, streak);
    if (this.streaks.size > MAX_SITES) this.streaks.delete(this.streaks.keys().next().value as string);
    options.shared?.block(site, blockedForMs, streak);
    // The probe after the block starts from a clean slate, but keeps the placeholder it must not see again.
    const recent = this.recent.get(site);
    if (recent) recent.splice(0, recent.length - 1);
    const verdict = { signal, blockedForMs, streak };
    options.onBlock?.(site, verdict);
    return verdict;
  }

  private unblock(site: string): void {
    this.options.holds.release(site);
    this.streaks.delete(site);
    this.options.shared?.block(site, null, 0);
    this.recent.delete(site);
    this.options.onUnblock?.(site);
  }
}
