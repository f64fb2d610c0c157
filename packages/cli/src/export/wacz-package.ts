import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseCdxjLine, replaceFileWith } from '@crawler/core';
import { fileIndexName, mergeCdxjFiles, parseWarcRecords, WARC_FILE } from '@crawler/embedded';
import { StoredZipWriter, type ZipEntry } from './stored-zip.js';

/** The WACZ version py-wacz, ReplayWeb.page and Browsertrix read and write. */
export const WACZ_VERSION = '1.1.1';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export interface WaczSummary {
  warcFiles: number;
  captures: number;
  pages: number;
  bytes: number;
}

/** Media types listed as pages in pages.jsonl: what a person opens in a replay. */
const PAGE_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * Packs the WARC files of a store folder as a WACZ 1.1.1 file: `archive/` the WARC files (each up
 * to its last indexed record, so a crawl still running or killed packs only whole captures),
 * `indexes/index.cdx` their CDXJ index merged and sorted, `pages/pages.jsonl` every HTML capture
 * with its title, `datapackage.json` with each file's SHA-256, and `datapackage-digest.json`. Every
 * entry is stored, not deflated, so a replay tool reads a record by offset straight from the ZIP.
 * The folder is only read; the file appears whole or not at all.
 */
export async function writeWacz(warcDir: string, output: string, title: string): Promise<WaczSummary> {
  const scratch = mkdtempSync(join(tmpdir(), 'wacz-'));
  try {
    const files = indexedFiles(warcDir, scratch);
    const index = join(scratch, 'index.cdx');
    const captures = await mergeCdxjFiles(
      files.map((file) => file.index),
      index,
    );
    const pagesPath = join(scratch, 'pages.jsonl');
    const pages = await writePages(warcDir, index, pagesPath);
    let bytes = 0;
    await replaceFileWith(output, async (handle) => {
      const zip = new StoredZipWriter(handle);
      const entries: ZipEntry[] = [];
      for (const file of files)
        entries.push(await zip.addFile(`archive/${file.name}`, join(warcDir, file.name), file.end));
      entries.push(await zip.addFile('indexes/index.cdx', index));
      entries.push(await zip.addFile('pages/pages.jsonl', pagesPath));
      const created = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const datapackage = Buffer.from(
        JSON.stringify(
          {
            profile: 'data-package',
            resources: entries.map((entry) => ({
              name: entry.path.slice(entry.path.lastIndexOf('/') + 1).toLowerCase(),
              path: entry.path,
              hash: `sha256:${entry.sha256}`,
              bytes: entry.bytes,
            })),
            title,
            created,
            wacz_version: WACZ_VERSION,
            software: `crawler/${version}`,
          },
          null,
          2,
        ),
      );
      const described = await zip.addBuffer('datapackage.json', datapackage);
      await zip.addBuffer(
        'datapackage-digest.json',
        Buffer.from(JSON.stringify({ path: 'datapackage.json', hash: `sha256:${described.sha256}` }, null, 2)),
      );
      await zip.finish();
      bytes = (await handle.stat()).size;
    });
    return { warcFiles: files.length, captures, pages, bytes };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Each WARC file with indexed captures, its index's whole lines sorted into the scratch folder (the
 * open file of a running or killed crawl is in write order, its last line maybe half written), and
 * where its last indexed capture ends.
 */
function indexedFiles(warcDir: string, scratch: string): { name: string; index: string; end: number }[] {
  const out: { name: string; index: string; end: number }[] = [];
  for (const name of readdirSync(warcDir)
    .filter((file) => WARC_FILE.test(file))
    .sort()) {
    const path = join(warcDir, fileIndexName(name));
    if (!existsSync(path)) continue;
    const lines: string[] = [];
    let end = 0;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        end = Math.max(end, Number(parseCdxjLine(line).fields.end));
        lines.push(line);
      } catch {
        // A line the crawl is appending.
      }
    }
    if (lines.length === 0) continue;
    lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const sorted = join(scratch, fileIndexName(name));
    writeFileSync(sorted, `${lines.join('\n')}\n`);
    out.push({ name, index: sorted, end });
  }
  return out;
}

/** pages.jsonl: a header, then each HTML capture stored as a response, with its title from its metadata record. */
async function writePages(warcDir: string, index: string, output: string): Promise<number> {
  const handles = new Map<string, FileHandle>();
  let count = 0;
  const out = await open(output, 'w');
  try {
    await out.write(`${JSON.stringify({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages' })}\n`);
    for (const line of readFileSync(index, 'utf8').split('\n')) {
      if (!line) continue;
      const { fields } = parseCdxjLine(line);
      if (!PAGE_TYPES.has(fields.mime) || !/^2\d\d$/.test(fields.status)) continue;
      let handle = handles.get(fields.filename);
      if (!handle) handles.set(fields.filename, (handle = await open(join(warcDir, fields.filename), 'r')));
      const offset = Number(fields.offset);
      const buffer = Buffer.alloc(Number(fields.end) - offset);
      await handle.read(buffer, 0, buffer.length, offset);
      const metadata = parseWarcRecords(gunzipSync(buffer)).find(
        (record) => record.headers.get('warc-type') === 'metadata',
      );
      const title = metadata ? (JSON.parse(metadata.block.toString('utf8')) as { title?: string | null }).title : null;
      const ts = new Date(Number(fields.fetchedAt)).toISOString();
      await out.write(
        `${JSON.stringify({ id: `${fields.filename}:${fields.offset}`, url: fields.url, ts, ...(title ? { title } : {}) })}\n`,
      );
      count++;
    }
  } finally {
    await out.close();
    for (const handle of handles.values()) await handle.close();
  }
  return count;
}
