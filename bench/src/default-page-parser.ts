import { parseCrawlJob } from '@crawler/core';
import {
  createPageParser,
  extractLimitsOf,
  loadLinkextractConfig,
  type ParsedContent,
  type PageInput,
} from '@crawler/linkextract';

/**
 * Link extraction's page parser (what the stage and `crawler check parse` run on a fetched body)
 * with default settings and a job that scopes no link out: how the benchmarks parse a page.
 */
export function createDefaultPageParser(): (input: PageInput) => Promise<ParsedContent> {
  const config = loadLinkextractConfig({ env: {} });
  return createPageParser({
    job: parseCrawlJob({ scope: { mode: 'any' } }),
    limits: extractLimitsOf(config),
    followNofollow: false,
    maxInputBytes: config.maxInputBytes,
  });
}
