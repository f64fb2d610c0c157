import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCdxjLine, type CdxjFields } from '@crawler/core';
import { fileIndexName, WARC_FILE } from './warc-file-names.js';

/**
 * Every capture the WARC files of a store folder index (pages and revisits), read from the files'
 * own indexes as they stand: usable beside a running crawl, whose last line may be half written
 * (skipped).
 */
export function indexedCaptures(dir: string): CdxjFields[] {
  if (!existsSync(dir)) return [];
  const out: CdxjFields[] = [];
  for (const name of readdirSync(dir).filter((file) => WARC_FILE.test(file))) {
    const path = join(dir, fileIndexName(name));
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        out.push(parseCdxjLine(line).fields);
      } catch {
        // The line a writer is appending.
      }
    }
  }
  return out;
}
