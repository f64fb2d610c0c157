import { lstatSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from '@crawler/core';
import { UsageError } from './usage-error.js';

/** The file that says the crawler made (or adopted, empty) this folder: only such a folder is ever emptied. */
export const OUTPUT_MARKER = '.crawler-output';

const MARKER_TEXT = `This folder holds the output of the crawler (crawler run or crawler demo).
crawler demo empties a folder that has this file before it crawls into it; remove this file to
keep the crawler from ever emptying it.
`;

/** What an earlier crawl leaves in its folder, from before folders were marked: such a folder may be resumed. */
const CRAWL_OUTPUT_ENTRIES = new Set(['linkbase', 'warc', 'crawl.log', 'crawl-summary.json']);

/**
 * Makes `dir` ready for a crawl's output and proves it writable by writing the marker, or throws a
 * one-line usage error naming --out. A folder is used when it is new, empty, marked, or (not
 * `fresh`) an earlier crawl's; a folder holding anything else is refused, so `--out ..` or
 * `--out ~` never mixes a crawl into a user's files. `fresh` (crawler demo) empties a marked folder
 * first, removing its entries without following symlinks.
 */
export async function prepareOutputFolder(command: string, dir: string, options: { fresh: boolean }): Promise<void> {
  const fail = (why: string) => new UsageError(`crawler ${command}: --out ${dir}: ${why}`);
  const existing = statOrNull(dir, fail);
  if (existing && !existing.isDirectory()) throw fail('is a file, not a folder; give a new or empty folder');
  if (!existing) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw fail(`cannot create it: ${(error as Error).message}`);
    }
  }
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (error) {
    throw fail(`cannot read it: ${(error as Error).message}`);
  }
  const marked = entries.includes(OUTPUT_MARKER) && lstatSync(join(dir, OUTPUT_MARKER)).isFile();
  if (!marked && entries.length > 0) {
    const earlierCrawl = entries.every((entry) => CRAWL_OUTPUT_ENTRIES.has(entry));
    if (options.fresh || !earlierCrawl)
      throw fail(
        `holds files the crawler did not make (no ${OUTPUT_MARKER} file in it), so it is left alone; give a new or empty folder`,
      );
  }
  if (marked && options.fresh)
    for (const entry of entries)
      if (entry !== OUTPUT_MARKER) rmSync(join(dir, entry), { recursive: true, force: true });
  try {
    await replaceFile(join(dir, OUTPUT_MARKER), MARKER_TEXT);
  } catch (error) {
    throw fail(`cannot write there: ${(error as Error).message}`);
  }
}

function statOrNull(path: string, fail: (why: string) => UsageError): ReturnType<typeof statSync> | null {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fail((error as Error).message);
  }
}
