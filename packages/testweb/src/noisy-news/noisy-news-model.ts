import { changesInRound, lastChangedRound } from '../model/content-editions.js';
import { createRandom, unitHash } from '../seeded-random.js';
import { writeParagraph, writeParagraphs, writeSentence, writeTitle } from '../text/prose.js';

// The noisy news site's model: what each page says in each round, and the truth derived from it.
// Server and truth both read it, so they cannot disagree.

export type ChangeKind = 'append' | 'correct' | 'rewrite';
export type NoisyTemplate = 'front' | 'section' | 'story' | 'print' | 'briefs' | 'brief' | 'wire-index' | 'wire';

export interface NoisyPage {
  host: 'ledger' | 'wire';
  path: string;
  template: NoisyTemplate;
  title: string;
  /** Pages sharing a content key say the same and change in the same rounds. */
  contentKey: string;
  /** The page's own text in a round (its edition's paragraphs, before any template). */
  paragraphs(round: number): string[];
  links: { path: string; host?: 'ledger' | 'wire'; text: string }[];
}

export interface NoisyNewsOptions {
  seed?: number;
  /** Stories on the ledger host; default 48. */
  stories?: number;
  /** Two-sentence briefs in the same template; default 8. */
  briefs?: number;
}

export const SECTIONS = ['city', 'harbor', 'sports', 'arts'] as const;
/** Stories the wire host reprints in its own template, and the ones it reprints with one sentence changed. */
export const WIRE_REPRINTS = [2, 5, 9, 14, 20, 27] as const;
export const WIRE_CORRECTED = [5, 20] as const;
/** Stories with a print version on the ledger host: the same text in a bare template. */
export const PRINT_STORIES = [3, 11] as const;
/** Per-round (hourly) change probabilities of stories: most stay as published, live ones change every hour. */
const STORY_RATES = [0, 0, 0, 0, 0.05, 0.1, 0.1, 0.2, 0.3, 1] as const;
const CHANGE_KINDS: readonly ChangeKind[] = ['append', 'correct', 'rewrite'];

export interface ContentSource {
  key: string;
  rate: number;
  /** Edition 0, and how each change builds on it. */
  base(): string[];
}

/** How content changed in a round: a paragraph added, a sentence corrected, or a paragraph rewritten. */
export function changeKind(seed: number, key: string, round: number): ChangeKind {
  return CHANGE_KINDS[Math.floor(unitHash(seed, 'nn-kind', key, round) * CHANGE_KINDS.length)]!;
}

/** The paragraphs of `source` as of `round`: edition 0 with every change since applied in order. */
export function editionOf(seed: number, source: ContentSource, round: number): string[] {
  const paragraphs = source.base().slice();
  const last = lastChangedRound(seed, source.key, source.rate, round);
  for (let r = 1; r <= last; r++) {
    if (!changesInRound(seed, source.key, source.rate, r)) continue;
    const random = createRandom(seed, 'nn-change', source.key, r);
    const kind = changeKind(seed, source.key, r);
    if (kind === 'append') paragraphs.push(`Update: ${writeParagraph(random, 2)}`);
    else if (kind === 'rewrite') paragraphs[random.int(paragraphs.length)] = writeParagraph(random, 4);
    else {
      const at = random.int(paragraphs.length);
      const sentences = paragraphs[at]!.split(/(?<=\.) /);
      sentences[random.int(sentences.length)] = writeSentence(random);
      paragraphs[at] = sentences.join(' ');
    }
  }
  return paragraphs;
}

export function storyTitle(seed: number, n: number): string {
  return writeTitle(createRandom(seed, 'nn-title', n));
}

export function storySource(seed: number, n: number): ContentSource {
  const key = `nn:story:${n}`;
  return {
    key,
    rate: STORY_RATES[Math.floor(unitHash(seed, 'nn-rate', key) * STORY_RATES.length)]!,
    base: () => writeParagraphs(createRandom(seed, 'nn-body', n), 5),
  };
}

/** The model of both hosts: every page with its template, text per round and links. */
export function buildNoisyNews(
  seed: number,
  options: Required<Omit<NoisyNewsOptions, 'seed'>>,
): { pages: NoisyPage[]; sources: Map<string, ContentSource> } {
  const pages: NoisyPage[] = [];
  const sources = new Map<string, ContentSource>();
  const add = (
    page: Omit<NoisyPage, 'paragraphs'>,
    source: ContentSource,
    transform: (paragraphs: string[], edition: number) => string[] = (p) => p,
  ) => {
    sources.set(source.key, source);
    pages.push({
      ...page,
      paragraphs: (round) =>
        transform(editionOf(seed, source, round), lastChangedRound(seed, source.key, source.rate, round)),
    });
  };
  const stories = Array.from({ length: options.stories }, (_, i) => i + 1);
  const sectionOf = (n: number) => SECTIONS[n % SECTIONS.length]!;

  add(
    {
      host: 'ledger',
      path: '/',
      template: 'front',
      title: 'The Harbor Ledger',
      contentKey: 'nn:front',
      links: [
        ...stories.slice(0, 12).map((n) => ({ path: `/story/${n}`, text: storyTitle(seed, n) })),
        { path: '/briefs', text: 'In brief' },
      ],
    },
    { key: 'nn:front', rate: 1, base: () => [writeParagraph(createRandom(seed, 'nn-front'), 2)] },
  );
  for (const section of SECTIONS) {
    const members = stories.filter((n) => sectionOf(n) === section);
    add(
      {
        host: 'ledger',
        path: `/section/${section}`,
        template: 'section',
        title: `${section[0]!.toUpperCase()}${section.slice(1)}`,
        contentKey: `nn:section:${section}`,
        links: members.map((n) => ({ path: `/story/${n}`, text: storyTitle(seed, n) })),
      },
      {
        key: `nn:section:${section}`,
        rate: 0.3,
        base: () => [writeParagraph(createRandom(seed, 'nn-section', section), 2)],
      },
    );
  }
  for (const n of stories) {
    const source = storySource(seed, n);
    const next = (k: number) => ((n - 1 + k) % options.stories) + 1;
    const links = [
      { path: `/section/${sectionOf(n)}`, text: `More ${sectionOf(n)}` },
      { path: `/story/${next(1)}`, text: storyTitle(seed, next(1)) },
    ];
    add(
      {
        host: 'ledger',
        path: `/story/${n}`,
        template: 'story',
        title: storyTitle(seed, n),
        contentKey: source.key,
        links,
      },
      source,
    );
    if ((PRINT_STORIES as readonly number[]).includes(n))
      add(
        {
          host: 'ledger',
          path: `/story/${n}/print`,
          template: 'print',
          title: storyTitle(seed, n),
          contentKey: source.key,
          links: [],
        },
        source,
      );
  }
  add(
    {
      host: 'ledger',
      path: '/briefs',
      template: 'briefs',
      title: 'In brief',
      contentKey: 'nn:briefs',
      links: Array.from({ length: options.briefs }, (_, i) => ({ path: `/brief/${i + 1}`, text: `Brief ${i + 1}` })),
    },
    { key: 'nn:briefs', rate: 0, base: () => ['Short items from around the harbor.'] },
  );
  for (let i = 1; i <= options.briefs; i++) {
    add(
      {
        host: 'ledger',
        path: `/brief/${i}`,
        template: 'brief',
        title: writeTitle(createRandom(seed, 'nn-brief-title', i)),
        contentKey: `nn:brief:${i}`,
        links: [{ path: '/briefs', text: 'All briefs' }],
      },
      { key: `nn:brief:${i}`, rate: 0.1, base: () => [writeParagraph(createRandom(seed, 'nn-brief', i), 2)] },
    );
  }
  const reprinted = WIRE_REPRINTS.filter((n) => n <= options.stories);
  add(
    {
      host: 'wire',
      path: '/',
      template: 'wire-index',
      title: 'Coastal Wire',
      contentKey: 'nn:wire-index',
      links: reprinted.flatMap((n) => [
        { path: `/wire/${n}`, host: 'wire' as const, text: storyTitle(seed, n) },
        ...((WIRE_CORRECTED as readonly number[]).includes(n)
          ? [{ path: `/wire/corrected-${n}`, host: 'wire' as const, text: `Corrected: ${storyTitle(seed, n)}` }]
          : []),
      ]),
    },
    { key: 'nn:wire-index', rate: 0, base: () => ['Stories from our partner newsrooms.'] },
  );
  for (const n of reprinted) {
    const source = storySource(seed, n);
    const credit = (paragraphs: string[]) => ['Reprinted with permission from The Harbor Ledger.', ...paragraphs];
    add(
      {
        host: 'wire',
        path: `/wire/${n}`,
        template: 'wire',
        title: storyTitle(seed, n),
        contentKey: source.key,
        links: [{ path: '/', host: 'wire', text: 'Wire home' }],
      },
      source,
      credit,
    );
    if (!(WIRE_CORRECTED as readonly number[]).includes(n)) continue;
    // One sentence differs from the story's, in every edition: a copy with a small edit.
    const corrected = (paragraphs: string[], edition: number) => {
      const out = credit(paragraphs);
      const sentences = out[2]!.split(/(?<=\.) /);
      sentences[0] = writeSentence(createRandom(seed, 'nn-corrected', n, edition));
      out[2] = sentences.join(' ');
      return out;
    };
    add(
      {
        host: 'wire',
        path: `/wire/corrected-${n}`,
        template: 'wire',
        title: storyTitle(seed, n),
        contentKey: source.key,
        links: [{ path: '/', host: 'wire', text: 'Wire home' }],
      },
      source,
      corrected,
    );
  }
  return { pages, sources };
}
