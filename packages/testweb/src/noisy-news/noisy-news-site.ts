import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidOptionsError } from '../errors.js';
import { changesInRound } from '../model/content-editions.js';
import { closeServer, listenHosts } from '../server/listen-hosts.js';
import {
  buildNoisyNews,
  changeKind,
  PRINT_STORIES,
  storyTitle,
  WIRE_CORRECTED,
  WIRE_REPRINTS,
  type ChangeKind,
  type NoisyNewsOptions,
  type NoisyPage,
} from './noisy-news-model.js';
import { renderNoisyPage } from './noisy-news-render.js';

/** What a correct change detector and near-duplicate detector should find in one round. */
export interface NoisyNewsTruth {
  round: number;
  /** Every page the site serves (all answer 200 HTML). */
  pages: string[];
  /** Pages whose own text differs from the previous round; the rest differ only in template noise. */
  changed: string[];
  changeKinds: { url: string; kind: ChangeKind }[];
  nearDuplicates: { a: string; b: string; kind: 'reprint-other-template' | 'small-edit' | 'noise-only' }[];
  notNearDuplicates: { a: string; b: string; kind: 'short-items-same-template' | 'different-articles' }[];
}

export interface NoisyNewsSite {
  origins: { ledger: string; wire: string };
  seeds: string[];
  readonly round: number;
  /** Rounds stand for hours: stories change at their own rates, the front page every round. */
  setRound(n: number): void;
  truth(): NoisyNewsTruth;
  /** Requests served so far. */
  readonly requests: number;
  close(): Promise<void>;
}

/**
 * A news site and a wire service whose pages carry template noise on every request, much of it
 * inside the story container (see noisy-news-render.ts), for re-crawl and near-duplicate
 * experiments. Its own model and truth, beside the test web's profiles.
 */
export async function startNoisyNewsSite(options: NoisyNewsOptions = {}): Promise<NoisyNewsSite> {
  const seed = options.seed ?? 1;
  const stories = options.stories ?? 48;
  const briefs = options.briefs ?? 8;
  if (!Number.isInteger(stories) || stories < 30)
    throw new InvalidOptionsError(`stories must be an integer >= 30 (the wire reprints story 27), got ${stories}`);
  if (!Number.isInteger(briefs) || briefs < 2)
    throw new InvalidOptionsError(`briefs must be an integer >= 2, got ${briefs}`);
  const [ledger, wire] = await listenHosts(2, undefined);
  const origins = { ledger: ledger!.origin, wire: wire!.origin };
  const model = buildNoisyNews(seed, { stories, briefs });
  const byUrl = new Map(model.pages.map((page) => [`${origins[page.host]}${page.path}`, page]));
  const titles = Array.from({ length: stories }, (_, i) => storyTitle(seed, i + 1));
  let round = 0;
  let requests = 0;
  const visits = { ledger: 0, wire: 0 };

  const handler = (host: 'ledger' | 'wire') => (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    const page = byUrl.get(`${origins[host]}${req.url ?? '/'}`);
    if (!page || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(page ? 405 : 404, { 'content-type': 'text/plain' });
      res.end(page ? 'method not allowed\n' : 'not found\n');
      return;
    }
    const html = renderNoisyPage(
      page,
      page.paragraphs(round),
      { now: new Date(), visit: ++visits[host], round, titles },
      origins,
    );
    const body = Buffer.from(html);
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  ledger!.attach(handler('ledger'));
  wire!.attach(handler('wire'));

  const url = (page: NoisyPage) => `${origins[page.host]}${page.path}`;
  const storyUrl = (n: number) => `${origins.ledger}/story/${n}`;
  return {
    origins,
    seeds: [`${origins.ledger}/`, `${origins.wire}/`],
    get round() {
      return round;
    },
    get requests() {
      return requests;
    },
    setRound(n) {
      if (!Number.isInteger(n) || n < 0) throw new InvalidOptionsError(`round must be an integer >= 0, got ${n}`);
      round = n;
    },
    truth() {
      const changed = model.pages.filter((page) => {
        const source = model.sources.get(page.contentKey)!;
        return changesInRound(seed, source.key, source.rate, round);
      });
      const reprinted = WIRE_REPRINTS.filter((n) => n <= stories);
      return {
        round,
        pages: model.pages.map(url).sort(),
        changed: changed.map(url).sort(),
        changeKinds: changed
          .map((page) => ({ url: url(page), kind: changeKind(seed, page.contentKey, round) }))
          .sort((a, b) => (a.url < b.url ? -1 : 1)),
        nearDuplicates: [
          ...reprinted.map((n) => ({
            a: storyUrl(n),
            b: `${origins.wire}/wire/${n}`,
            kind: 'reprint-other-template' as const,
          })),
          ...WIRE_CORRECTED.map((n) => ({
            a: storyUrl(n),
            b: `${origins.wire}/wire/corrected-${n}`,
            kind: 'small-edit' as const,
          })),
          ...PRINT_STORIES.map((n) => ({ a: storyUrl(n), b: `${storyUrl(n)}/print`, kind: 'noise-only' as const })),
        ],
        notNearDuplicates: [
          ...Array.from({ length: briefs - 1 }, (_, i) => ({
            a: `${origins.ledger}/brief/${i + 1}`,
            b: `${origins.ledger}/brief/${i + 2}`,
            kind: 'short-items-same-template' as const,
          })),
          ...Array.from({ length: 10 }, (_, i) => ({
            a: storyUrl(2 * i + 1),
            b: storyUrl(2 * i + 2),
            kind: 'different-articles' as const,
          })),
        ],
      };
    },
    close: async () => {
      await Promise.all([closeServer(ledger!.server), closeServer(wire!.server)]);
    },
  };
}
