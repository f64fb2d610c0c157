import { loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import type { ExtractLimits } from './extract-html.js';

const MAX_WORKERS = 64;
const WORKERS_EXPECTED = `"auto" or a whole number of threads from 0 to ${MAX_WORKERS}`;
/** Each thread holds its own heap (about 10 MB idle): past a few, more cores pay less than their memory costs. */
const AUTO_WORKERS_MAX = 4;

/** Every link extraction setting, with its environment variable and default. */
export const linkextractSettings = {
  concurrency: setting(
    'LINKEXTRACT_CONCURRENCY',
    z.number().int().min(1).default(16),
    'Pages parsed at once (parsing is CPU-bound; more only overlaps I/O).',
  ),
  workers: setting(
    'LINKEXTRACT_WORKERS',
    z
      .union(
        [
          z.literal('auto'),
          z.coerce
            .number({ error: WORKERS_EXPECTED })
            .int({ error: WORKERS_EXPECTED })
            .min(0, { error: WORKERS_EXPECTED })
            .max(MAX_WORKERS, { error: WORKERS_EXPECTED }),
        ],
        { error: WORKERS_EXPECTED },
      )
      .default('auto'),
    `Worker threads that parse pages, so extraction uses more than one core; 0 parses on the main thread. "auto": one per core but the one the main thread uses, at most ${AUTO_WORKERS_MAX}.`,
  ),
  maxLinks: setting(
    'LINKEXTRACT_MAX_LINKS',
    z.number().int().min(1).default(5000),
    'Links passed on per page, counted as distinct in-scope URLs (repeats and off-scope links do not use it up); past it links are dropped, the page flagged and a warning logged. Up to 4x as many distinct links are collected from the markup.',
  ),
  maxAnchorChars: setting(
    'LINKEXTRACT_MAX_ANCHOR_CHARS',
    z.number().int().min(0).default(200),
    'Anchor text kept per link.',
  ),
  maxTextChars: setting(
    'LINKEXTRACT_MAX_TEXT_CHARS',
    z.number().int().min(1000).default(1_000_000),
    'Visible text kept per page.',
  ),
  maxMarkdownChars: setting(
    'LINKEXTRACT_MAX_MARKDOWN_CHARS',
    z.number().int().min(1000).default(2_000_000),
    "Markdown kept per page (the main text with its form and its links' URLs, so longer than the text); past it the Markdown ends at its last whole block and the page is flagged markdown-capped.",
  ),
  maxInputBytes: setting(
    'LINKEXTRACT_MAX_INPUT_BYTES',
    z
      .number()
      .int()
      .min(64 * 1024)
      .default(8 * 1024 * 1024),
    'Body bytes parsed per page; the rest is ignored and the page flagged.',
  ),
  maxElements: setting(
    'LINKEXTRACT_MAX_ELEMENTS',
    z.number().int().min(1000).default(200_000),
    'Elements kept for main-text extraction; past it, text goes to the enclosing element.',
  ),
  maxNesting: setting(
    'LINKEXTRACT_MAX_NESTING',
    z.number().int().min(16).default(256),
    'Element nesting kept for main-text extraction; deeper elements are flattened.',
  ),
  maxParseMs: setting(
    'LINKEXTRACT_MAX_PARSE_MS',
    z.number().int().min(100).default(5000),
    'Time budget for parsing one page; the rest of a slower page is not parsed and the page is flagged.',
  ),
  followNofollow: setting(
    'LINKEXTRACT_FOLLOW_NOFOLLOW',
    z.boolean().default(false),
    'Keep links marked rel=nofollow/ugc/sponsored.',
  ),
  robotsAgent: setting(
    'LINKEXTRACT_ROBOTS_AGENT',
    z
      .string()
      .regex(/^[A-Za-z_-]+$/, 'a product token: letters, "_" and "-"')
      .default('crawler'),
    'Product token whose own robots meta tag (name=TOKEN) and "TOKEN:" X-Robots-Tag directives apply besides the generic ones (match the fetcher User-Agent).',
  ),
  jobFile: setting(
    'CRAWL_JOB_FILE',
    z.string().optional(),
    'Crawl job file (seeds, scope, limits) shared by all services.',
  ),
};

export type LinkextractConfig = ConfigOf<typeof linkextractSettings>;

/** The extraction caps of a config. */
export function extractLimitsOf(config: Pick<LinkextractConfig, keyof ExtractLimits>): ExtractLimits {
  return {
    maxLinks: config.maxLinks,
    maxAnchorChars: config.maxAnchorChars,
    maxTextChars: config.maxTextChars,
    maxElements: config.maxElements,
    maxNesting: config.maxNesting,
    maxParseMs: config.maxParseMs,
    maxMarkdownChars: config.maxMarkdownChars,
  };
}

/** Parsing threads of a config: "auto" sized to the machine's cores. */
export function extractWorkersOf(config: Pick<LinkextractConfig, 'workers'>, cores = availableParallelism()): number {
  return config.workers === 'auto' ? Math.min(AUTO_WORKERS_MAX, Math.max(0, cores - 1)) : config.workers;
}

export function loadLinkextractConfig(options?: LoadOptions): LinkextractConfig {
  return loadConfig('linkextract', linkextractSettings, options);
}
