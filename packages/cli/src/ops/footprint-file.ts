import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FootprintWindow } from '@crawler/core';
import { UsageError } from '../usage-error.js';

/** Where an embedded crawl leaves its footprint: its in-process store goes when the process does. */
export const FOOTPRINT_FILE = 'footprint.json';

interface FootprintFile {
  writtenAt: number;
  windows: FootprintWindow[];
}

/** Writes the footprint beside the crawl's other output, atomically (a reader never sees half a file). */
export function writeFootprintFile(outDir: string, windows: FootprintWindow[], now = Date.now()): void {
  const path = join(outDir, FOOTPRINT_FILE);
  const file: FootprintFile = { writtenAt: now, windows };
  writeFileSync(`${path}.tmp`, JSON.stringify(file));
  renameSync(`${path}.tmp`, path);
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
  return (JSON.parse(text) as FootprintFile).windows;
}
