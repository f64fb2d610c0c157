import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadWarcConfig, WarcPageStore, WARC_FILE } from '@crawler/embedded';
import { createHbaseRestClient, loadHbaseConfig, scanCaptures, type CaptureRange } from '@crawler/hbase';
import { writeWacz } from '../export/wacz-package.js';
import { reach } from '../ops/stack-access.js';
import { checkOutputFile, parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';

export const exportHelp = `Usage: crawler export wacz [options] CRAWL_OUT FILE.wacz
       crawler export wacz --from-stack [--job ID] [--start TIME] [--end TIME] FILE.wacz
       crawler export warc --from-stack [--job ID] [--start TIME] [--end TIME] FOLDER

Hands a crawl's archive over in the formats web archives share.

  wacz   a WACZ 1.1.1 package (what ReplayWeb.page, pywb and Browsertrix open): the WARC files,
         their CDXJ index sorted by SURT key and time, pages/pages.jsonl (every HTML capture
         with its title) and datapackage.json with the SHA-256 of each file. From the WARC files
         of an embedded crawl (CRAWL_OUT, the folder given to crawler run), or with --from-stack
         from the HBase page store. A crawl still running packs the captures indexed so far.
  warc   WARC 1.1 files with their CDXJ indexes into FOLDER (new or empty), written from the
         HBase page store (HBASE_REST_URL, HBASE_TABLE): pages as response records, unchanged
         and duplicate captures as revisit records, the redirects the crawler followed as
         response records with their 3xx status and Location.

  --from-stack          read the HBase page store instead of an embedded crawl's folder
  --job ID              only the captures of this crawl job (--from-stack)
  --start TIME          only captures fetched at or after TIME (--from-stack)
  --end TIME            only captures fetched before TIME (--from-stack)
  -h, --help            this help

TIME is an ISO 8601 date or date and time: 2026-11-01, 2026-11-01T12:00:00Z. The warcinfo
record that opens each file names WARC_OPERATOR as its operator.
Exit code 0 when the archive was written, 1 when the store cannot be read, 2 on bad usage.`;

export const flagSpec = {
  'from-stack': { type: 'boolean' },
  job: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
} as const;

export async function exportCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [format, ...rest] = argv;
  if (!format || format === '--help' || format === '-h') {
    (format ? process.stdout : process.stderr).write(`${exportHelp}\n`);
    return format ? 0 : 2;
  }
  if (format !== 'wacz' && format !== 'warc')
    throw new UsageError(`crawler export: unknown format "${format}": wacz or warc (see crawler export --help)`);
  const command = `export ${format}`;
  const { values, positionals } = parseFlags(command, rest, flagSpec, true);
  if (values.help) {
    process.stdout.write(`${exportHelp}\n`);
    return 0;
  }
  const range: CaptureRange = {
    jobId: values.job ?? null,
    start: timeFlag(command, 'start', values.start),
    end: timeFlag(command, 'end', values.end),
  };
  if (range.start !== null && range.end !== null && range.end <= range.start)
    throw new UsageError(`crawler ${command}: --end must come after --start`);
  const fromStack = values['from-stack'] ?? false;
  if (!fromStack && (values.job !== undefined || values.start !== undefined || values.end !== undefined))
    throw new UsageError(`crawler ${command}: --job, --start and --end choose captures in HBase: give --from-stack`);

  if (format === 'warc') {
    if (!fromStack)
      throw new UsageError(
        'crawler export warc: an embedded crawl keeps its WARC files in CRAWL_OUT/warc already; --from-stack writes those of the HBase page store',
      );
    const folder = onePositional(command, positionals, 'FOLDER');
    checkNewFolder(command, folder);
    const hbase = loadHbaseConfig({ env });
    const warc = loadWarcConfig({ env });
    const counts = await exportFromHbase(hbase, warc.operator, range, folder);
    process.stdout.write(
      `exported ${counts.pages} page versions, ${counts.revisits} revisits and ${counts.redirects} redirects from HBase table ${hbase.table} to ${folder}\n`,
    );
    return 0;
  }

  if (fromStack) {
    const file = onePositional(command, positionals, 'FILE.wacz');
    checkOutputFile(command, 'FILE.wacz', file);
    const hbase = loadHbaseConfig({ env });
    const warc = loadWarcConfig({ env });
    const scratch = mkdtempSync(join(dirname(resolve(file)), '.export-'));
    try {
      const counts = await exportFromHbase(hbase, warc.operator, range, scratch);
      if (counts.pages + counts.revisits + counts.redirects === 0) {
        process.stderr.write(`crawler export wacz: HBase table ${hbase.table} holds no capture in that range\n`);
        return 1;
      }
      return report(file, await writeWacz(scratch, file, `crawl archive from HBase table ${hbase.table}`));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  if (positionals.length !== 2)
    throw new UsageError('crawler export wacz: give CRAWL_OUT and FILE.wacz (see crawler export --help)');
  const [out, file] = positionals as [string, string];
  const warcDir = join(out, 'warc');
  if (
    !existsSync(warcDir) ||
    !statSync(warcDir).isDirectory() ||
    !readdirSync(warcDir).some((name) => WARC_FILE.test(name))
  )
    throw new UsageError(
      `crawler export wacz: no WARC files under ${warcDir}: CRAWL_OUT names the folder given to crawler run`,
    );
  checkOutputFile(command, 'FILE.wacz', file);
  const summary = await writeWacz(warcDir, file, `crawl archive of ${resolve(out)}`);
  if (summary.captures === 0) {
    process.stderr.write(`crawler export wacz: the WARC files under ${warcDir} index no capture yet\n`);
    return 1;
  }
  return report(file, summary);
}

function report(file: string, summary: Awaited<ReturnType<typeof writeWacz>>): number {
  process.stdout.write(
    `wrote ${file}: ${summary.captures} captures (${summary.pages} pages) from ${summary.warcFiles} WARC files, ${summary.bytes} bytes\n`,
  );
  return 0;
}

/** Page versions, revisits and redirects of the HBase page store written as WARC files (and their indexes) into `folder`. */
async function exportFromHbase(
  hbase: ReturnType<typeof loadHbaseConfig>,
  operator: string,
  range: CaptureRange,
  folder: string,
): Promise<{ pages: number; revisits: number; redirects: number }> {
  const where = `HBase table ${hbase.table} (HBASE_REST_URL, HBASE_TABLE)`;
  const client = createHbaseRestClient({ url: hbase.restUrl, requestTimeoutMs: hbase.requestTimeoutMs });
  mkdirSync(folder, { recursive: true });
  const store = await WarcPageStore.open(folder, { operator });
  const counts = { pages: 0, revisits: 0, redirects: 0 };
  try {
    const batches = scanCaptures(client, hbase, range);
    for (;;) {
      const next = await reach(where, () => batches.next());
      if (next.done) break;
      await store.put(next.value.pages);
      await store.putRevisits(next.value.revisits);
      await store.putRedirects(next.value.redirects);
      counts.pages += next.value.pages.length;
      counts.revisits += next.value.revisits.length;
      counts.redirects += next.value.redirects.length;
    }
  } finally {
    await store.close();
  }
  return counts;
}

function onePositional(command: string, positionals: string[], what: string): string {
  if (positionals.length !== 1)
    throw new UsageError(`crawler ${command}: give exactly one ${what} (see crawler export --help)`);
  return positionals[0]!;
}

function checkNewFolder(command: string, folder: string): void {
  if (existsSync(folder) && (!statSync(folder).isDirectory() || readdirSync(folder).length > 0))
    throw new UsageError(`crawler ${command}: ${folder} must be a new or empty folder`);
  const parent = dirname(resolve(folder));
  if (!existsSync(parent) || !statSync(parent).isDirectory())
    throw new UsageError(`crawler ${command}: the folder ${parent} does not exist`);
}

/** An ISO 8601 date or date and time as epoch ms. */
export function timeFlag(command: string, name: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const ms = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(value)
    ? Date.parse(value)
    : NaN;
  if (!Number.isFinite(ms))
    throw new UsageError(
      `crawler ${command}: --${name} must be an ISO 8601 date or time like 2026-11-01T12:00:00Z, got "${value}"`,
    );
  return ms;
}
