import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile, type FootprintWindow } from '@crawler/core';
import { UsageError } from '../usage-error.js';
import { mergeWindows } from './footprint-report.js';

/** Where an embedded crawl leaves its footprint: its in-process store goes when the process does. */
export const FOOTPRINT_FILE = 'footprint.json';

interface Stored {
  writtenAt: number;
  windows: FootprintWindow[];
}

/**
 * An embedded crawl's footprint file. The windows of earlier runs in the folder (a resumed crawl)
 * are read once and kept beside this run's, added up where both counted in one window, so the
 * file tells what the sites saw of the folder's whole crawl over the last 48 hours.
 */
export class FootprintFile {
  private constructor(
    private readonly path: string,
    private readonly earlier: FootprintWindow[],
  ) {}

  static open(outDir: string): FootprintFile {
    const path = join(outDir, FOOTPRINT_FILE);
    let earlier: FootprintWindow[] = [];
    try {
      earlier = (JSON.parse(readFileSync(path, 'utf8')) as Stored).windows;
    } catch {
      // No earlier run here, or a file cut short by a crash: this run starts the count.
    }
    return new FootprintFile(path, earlier);
  }

  /** Writes the earlier runs' windows and this run's, atomically (a reader never sees half a file). */
  async save(current: FootprintWindow[], now = Date.now()): Promise<void> {
    const stored: Stored = { writtenAt: now, windows: mergeWindows([...this.earlier, ...current], now) };
    await replaceFile(this.path, JSON.stringify(stored));
  }
}

export function readFootprintFile(outDir: string): FootprintWindow[] {
  const path = join(outDir, FOOTPRINT_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(
      `crawler footprint: no ${path}; --out names the folder of a crawl run with crawler run (written every 10 s while it runs)`,
    );
  }
  return (JSON.parse(text) as Stored).windows;
}
