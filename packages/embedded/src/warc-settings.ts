import { loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';

/** Every setting of the WARC page store, with its environment variable and default; its folder is CRAWLER_DATA_DIR/warc. */
export const warcSettings = {
  gzipLevel: setting(
    'WARC_GZIP_LEVEL',
    z.number().int().min(1).max(9).default(6),
    'gzip level of each WARC record, 1 (fastest) to 9 (smallest). Level 1 took about half the compression CPU of 6 for files about 16% larger on the bench pages.',
  ),
  operator: setting(
    'WARC_OPERATOR',
    z.string().max(500).default(''),
    'who runs the crawl, with a contact (a name and an e-mail or URL), written as `operator` in the warcinfo record that opens each WARC file; empty leaves it out.',
  ),
};

export type WarcConfig = ConfigOf<typeof warcSettings>;

export function loadWarcConfig(options?: LoadOptions): WarcConfig {
  return loadConfig('warc', warcSettings, options);
}
