/** One file wget saved, as its `--no-verbose` log reports it. */
export interface WgetSaved {
  url: string;
  /** Where it was written, relative to wget's working directory. */
  file: string;
  bytes: number;
}

// `2026-11-25 14:39:29 URL:http://127.0.0.1:18201/ [13011/13011] -> "127.0.0.1:18201/index.html" [1]`;
// the length is `[n]` alone when the server sent none. Errors take two lines and match nothing.
const SAVED_LINE = /^\S+ \S+ URL: ?(\S+) \[(\d+)(?:\/\d+)?\] -> "(.*)" \[\d+\]$/;

/** The saved file a line of wget's `--no-verbose` log reports, or null for any other line. */
export function parseWgetLine(line: string): WgetSaved | null {
  const match = SAVED_LINE.exec(line.trimEnd());
  return match ? { url: match[1]!, bytes: Number(match[2]), file: match[3]! } : null;
}

/**
 * What wget kept: one entry per file, named by the URL that wrote it last. Two URLs that map to
 * one file (`/` and `/index.html`) leave one copy on disk, the later download overwriting the
 * earlier, so wget keeps that page once however often it fetched it.
 */
export function keptByWget(saved: readonly WgetSaved[]): WgetSaved[] {
  const byFile = new Map<string, WgetSaved>();
  for (const entry of saved) byFile.set(entry.file, entry);
  return [...byFile.values()];
}

/** Whether wget saved a page (an HTML file), by the name it gave the file. */
export function isSavedPage(entry: WgetSaved): boolean {
  return /\.html?$/i.test(entry.file);
}
