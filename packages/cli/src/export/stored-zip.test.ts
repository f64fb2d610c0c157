import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoredZipWriter } from './stored-zip.js';

/** Python's zipfile reads the archive back: each entry's method, size and bytes. */
function readWithPython(zip: string): { name: string; method: number; size: number; text: string }[] {
  const script = `
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    assert z.testzip() is None
    print(json.dumps([{'name': i.filename, 'method': i.compress_type, 'size': i.file_size, 'text': z.read(i).decode()} for i in z.infolist()]))
`;
  return JSON.parse(execFileSync('python3', ['-c', script, zip], { encoding: 'utf8' })) as never;
}

describe('StoredZipWriter', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it.each([
    ['plain fields', undefined],
    ['ZIP64 fields (sizes and offsets past the bound)', 10],
  ])('writes stored entries a ZIP reader takes, with %s', async (_, limit) => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'a.warc.gz'), 'the first file, longer than ten bytes');
    const zip = join(dir, 'out.wacz');
    const handle = await open(zip, 'w');
    const writer = new StoredZipWriter(handle, limit);
    const entries = [
      await writer.addFile('archive/a.warc.gz', join(dir, 'a.warc.gz')),
      await writer.addFile('archive/cut.warc.gz', join(dir, 'a.warc.gz'), 9),
      await writer.addBuffer('pages/pages.jsonl', Buffer.from('{"format":"json-pages-1.0"}\n')),
      await writer.addBuffer('empty', Buffer.alloc(0)),
    ];
    await writer.finish();
    await handle.close();
    expect(entries.map((entry) => entry.bytes)).toEqual([37, 9, 28, 0]);
    expect(entries[3]!.sha256).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(readWithPython(zip)).toEqual([
      { name: 'archive/a.warc.gz', method: 0, size: 37, text: 'the first file, longer than ten bytes' },
      { name: 'archive/cut.warc.gz', method: 0, size: 9, text: 'the first' },
      { name: 'pages/pages.jsonl', method: 0, size: 28, text: '{"format":"json-pages-1.0"}\n' },
      { name: 'empty', method: 0, size: 0, text: '' },
    ]);
  });
});
