import { loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';

/** Every link extraction setting, with its environment variable and default. */
export const linkextractSettings = {
  concurrency: setting('LINKEXTRACT_CONCURRENCY', z.number().int().min(1).default(16), 'Pages parsed at once (parsing is CPU-bound; more only overlaps I/O).'),
  maxLinks: setting('LINKEXTRACT_MAX_LINKS', z.number().int().min(1).default(5000), 'Links kept per page; the rest are dropped and the page flagged.'),
  maxAnchorChars: setting('LINKEXTRACT_MAX_ANCHOR_CHARS', z.number().int().min(0).default(200), 'Anchor text kept per link.'),
  maxTextChars: setting('LINKEXTRACT_MAX_TEXT_CHARS', z.number().int().min(1000).default(1_000_000), 'Visible text kept per page.'),
  followNofollow: setting('LINKEXTRACT_FOLLOW_NOFOLLOW', z.boolean().default(false), 'Keep links marked rel=nofollow/ugc/sponsored.'),
  jobFile: setting('CRAWL_JOB_FILE', z.string().optional(), 'Crawl job file (seeds, scope, limits) shared by all services.'),
};

export type LinkextractConfig = ConfigOf<typeof linkextractSettings>;

export function loadLinkextractConfig(options?: LoadOptions): LinkextractConfig {
  return loadConfig('linkextract', linkextractSettings, options);
}
