import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { decodeText, encodingName } from '@crawler/core';
import { chooseCharset } from '@crawler/fetcher';
import chardet from 'chardet';
import { CHARDET_VERSION, chardetTestsDir, FAMILIES, loadChardetCorpus, type Group } from './chardet-corpus.js';

/**
 * `npm run bench:charset`: is each of chardet's real-world pages decoded right? Right means the
 * chosen charset decodes the bytes to the same text as the page's own encoding. Two ways to
 * serve a page, both as text/html without a charset in the header: as written (XML declarations
 * and meta tags count), and undeclared (their charset removed: detection alone). Undeclared
 * pages are also given to chardet alone, the detector the fetcher used before its Cyrillic
 * model (the first confident guess, else windows-1252), as the baseline of the same run.
 */
const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
const { values } = parseArgs({
  options: { cache: { type: 'string', default: join(resultsDir, 'tmp') }, json: { type: 'boolean', default: false } },
});

const corpus = loadChardetCorpus(chardetTestsDir(values.cache));
const ways = ['chardet alone, undeclared', 'ours, undeclared', 'ours, as written'] as const;
type Way = (typeof ways)[number];
type Tally = Record<Way, number> & { files: number };
const emptyTally = (): Tally => ({
  files: 0,
  'chardet alone, undeclared': 0,
  'ours, undeclared': 0,
  'ours, as written': 0,
});
const families = new Map<string, Tally>();

for (const file of corpus) {
  const expected = FAMILIES[file.family]!.charset;
  const truth = decodeText(file.bytes, expected).text;
  const right = (charset: string) => charset === expected || decodeText(file.bytes, charset).text === truth;
  const undeclared = withoutDeclarations(file.bytes);
  const row = families.get(file.family) ?? emptyTally();
  row.files++;
  if (right(chardetAlone(undeclared))) row['chardet alone, undeclared']++;
  if (right(chooseCharset(undeclared, 'text/html').charset)) row['ours, undeclared']++;
  if (right(chooseCharset(file.bytes, 'text/html').charset)) row['ours, as written']++;
  families.set(file.family, row);
}

const groups = new Map<Group, Tally>();
for (const [family, row] of families) {
  const group = FAMILIES[family]!.group;
  const sum = groups.get(group) ?? emptyTally();
  sum.files += row.files;
  for (const way of ways) sum[way] += row[way];
  groups.set(group, sum);
}

const cell = (right: number, files: number) => `${right}/${files}`;
const table = (title: string, rows: Map<string, Tally>) => [
  `| ${title} | files | ${ways.join(' | ')} |`,
  `|---|---|${ways.map(() => '---').join('|')}|`,
  ...[...rows].map(
    ([name, row]) => `| ${name} | ${row.files} | ${ways.map((way) => cell(row[way], row.files)).join(' | ')} |`,
  ),
];
const lines = [
  `chardet ${CHARDET_VERSION} test pages, ${corpus.length} files in ${families.size} families`,
  '',
  ...table('group', groups),
  '',
  ...table('family', families),
];
mkdirSync(resultsDir, { recursive: true });
const report = {
  chardetVersion: CHARDET_VERSION,
  families: Object.fromEntries(families),
  groups: Object.fromEntries(groups),
};
writeFileSync(join(resultsDir, 'charset.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(values.json ? `${JSON.stringify(report)}\n` : `${lines.join('\n')}\n`);

/** The page with the charset of its XML declaration and of its meta tags taken out. */
function withoutDeclarations(bytes: Buffer): Buffer {
  const text = bytes
    .toString('latin1')
    .replace(/(<\?xml[^>]*?)\s+encoding\s*=\s*["'][^"']*["']/i, '$1')
    .replace(/charset\s*=\s*["']?[\w.:-]+/gi, 'charset-removed');
  return Buffer.from(text, 'latin1');
}

/** The fetcher's detection before its Cyrillic model: UTF-8 if valid, else chardet's first confident guess. */
function chardetAlone(bytes: Buffer): string {
  const sample = bytes.subarray(0, 64 * 1024);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample);
    return 'utf-8';
  } catch {
    // not UTF-8: ask chardet
  }
  for (const candidate of chardet.analyse(sample)) {
    if (candidate.confidence < 20) break;
    const name = encodingName(candidate.name);
    if (name && !name.startsWith('utf-')) return name;
  }
  return 'windows-1252';
}
