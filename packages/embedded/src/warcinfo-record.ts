import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { gzipMember } from './gzip-member.js';
import { serializeWarcRecord } from './warc-record.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export interface WarcinfoFields {
  /** The WARC file this record opens. */
  filename: string;
  date: Date;
  /** The crawl job the file's captures belong to (`isPartOf`). */
  jobId: string | null;
  /** Who ran the crawl (WARC_OPERATOR): a name and a contact. */
  operator: string | null;
}

/**
 * The `warcinfo` record that opens each WARC file, as archives write it: what wrote the file, for
 * whom, and how it treated robots.txt (always obeyed: the fetcher has no way to ignore it).
 */
export function warcinfoRecord(fields: WarcinfoFields, gzipLevel: number): Buffer {
  const lines: [string, string | null][] = [
    ['software', `crawler/${version} (Node.js ${process.version})`],
    ['format', 'WARC File Format 1.1'],
    ['conformsTo', 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/'],
    ['isPartOf', fields.jobId],
    ['operator', fields.operator],
    ['hostname', hostname()],
    ['robots', 'obey'],
  ];
  const block = lines
    .filter((line): line is [string, string] => line[1] !== null && line[1] !== '')
    .map(([name, value]) => `${name}: ${value.replace(/[\r\n]+/g, ' ')}\r\n`)
    .join('');
  const record = serializeWarcRecord({
    type: 'warcinfo',
    date: fields.date,
    contentType: 'application/warc-fields',
    block: Buffer.from(block, 'utf8'),
    headers: { 'WARC-Filename': fields.filename },
  });
  return gzipMember(record.bytes, gzipLevel);
}
