import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { archiveSurtKey, cdxDigest, cdxMime, cdxTimestamp, formatCdxjLine, replaceFile } from '@crawler/core';
import { gzipMemberLength } from './gzip-member.js';
import { cutTornTail } from './torn-tail.js';
import { fileIndexName } from './warc-file-names.js';
import { parseWarcRecords } from './warc-record.js';

interface LegacyLine {
  url: string;
  fetchedAt: number;
  mime: string | null;
  status: number;
  filename: string;
  offset: number;
  length: number;
}

/**
 * Output folders written before each WARC file had its own index kept one `pages.cdxj` in crawl
 * order, a line per page spanning its response and metadata records. Its lines become the files'
 * indexes (one line per response record, pointing at it alone, with its SHA-1 payload digest), so
 * such a folder resumes with nothing cut; then it is removed. Returns whether there was one.
 */
export async function migrateLegacyIndex(dir: string): Promise<boolean> {
  const path = join(dir, 'pages.cdxj');
  if (!existsSync(path)) return false;
  cutTornTail(path);
  const byFile = new Map<string, string[]>();
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (!text) continue;
    const legacy = JSON.parse(text.slice(text.indexOf('{'))) as LegacyLine;
    const handle = await open(join(dir, legacy.filename), 'r');
    let pair: Buffer;
    try {
      pair = Buffer.alloc(legacy.length);
      await handle.read(pair, 0, legacy.length, legacy.offset);
    } finally {
      await handle.close();
    }
    const responseLength = gzipMemberLength(pair);
    const [response] = parseWarcRecords(gunzipSync(pair.subarray(0, responseLength)));
    const lines = byFile.get(legacy.filename) ?? [];
    byFile.set(legacy.filename, lines);
    lines.push(
      formatCdxjLine({
        key: archiveSurtKey(legacy.url),
        timestamp: cdxTimestamp(legacy.fetchedAt),
        fields: {
          url: legacy.url,
          mime: cdxMime(legacy.mime),
          status: String(legacy.status),
          digest: cdxDigest(response?.headers.get('warc-payload-digest') ?? '-'),
          length: String(responseLength),
          offset: String(legacy.offset),
          filename: legacy.filename,
          fetchedAt: legacy.fetchedAt,
          end: legacy.offset + legacy.length,
        },
      }),
    );
  }
  for (const [filename, lines] of byFile) {
    lines.sort();
    await replaceFile(join(dir, fileIndexName(filename)), `${lines.join('\n')}\n`);
  }
  unlinkSync(path);
  return true;
}
