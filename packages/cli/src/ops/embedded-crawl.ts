import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FileLinkBase } from '@crawler/embedded';
import { UsageError } from '../usage-error.js';

/** The link base folder of an embedded crawl's output folder, or a usage error naming what is missing. */
export function embeddedLinkBaseDir(command: string, out: string): string {
  const dir = join(out, 'linkbase');
  if (!existsSync(dir))
    throw new UsageError(`crawler ${command}: no link base under ${dir}: --out names the folder given to crawler run`);
  return dir;
}

/**
 * Opens an embedded crawl's link base from its output folder. Read-only by default: the crawl may
 * still be running, and a second writer would append stale records to its journal.
 */
export function openEmbeddedLinkBase(out: string, options: { readOnly: boolean }): Promise<FileLinkBase> {
  return FileLinkBase.open(join(out, 'linkbase'), { readOnly: options.readOnly });
}
