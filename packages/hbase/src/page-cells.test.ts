import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CellEncoding } from './cell-codec.js';
import { CellEncodingError } from './hbase-errors.js';
import { decodeMeta, decodePage, encodePage, groupVersions, PageQualifier, type PageVersion } from './page-cells.js';
import { samplePage } from './testing/index.js';

function version(timestamp: number, cells: { qualifier: PageQualifier; value: Buffer }[]): PageVersion {
  return { timestamp, cells: new Map(cells.map((cell) => [cell.qualifier, cell.value])) };
}

describe('page cells', () => {
  it('splits a page into body, headers, text, Markdown and meta cells and puts it back together', async () => {
    const page = samplePage('http://cells.test/a', 1234, {
      headers: { 'content-type': 'text/html', etag: '"x"' },
      text: 'words '.repeat(2000),
      markdown: '## Words\n\n'.concat('*words* '.repeat(2000)),
    });
    const cells = await encodePage(page, 4096);
    expect(cells.map((cell) => cell.qualifier)).toEqual(['body', 'headers', 'text', 'markdown', 'meta']);
    expect(cells.find((cell) => cell.qualifier === 'text')?.value[0]).toBe(CellEncoding.gzip);
    expect(cells.find((cell) => cell.qualifier === 'markdown')?.value[0]).toBe(CellEncoding.gzip);
    const stored = version(1234, cells);
    const meta = await decodeMeta(stored, 'v');
    expect(meta).not.toHaveProperty('body');
    expect(meta).not.toHaveProperty('text');
    expect(meta).not.toHaveProperty('markdown');
    expect(await decodePage(stored, meta, 'v')).toEqual({ ...page, bodyEncoding: 'identity' });
  });

  it('reads a row written before pages carried their request with no request headers', async () => {
    const { requestHeaders: _sent, ...older } = samplePage('http://cells.test/older', 1234);
    const cells = await encodePage(older as ReturnType<typeof samplePage>, 4096);
    const stored = version(1234, cells);
    expect((await decodePage(stored, await decodeMeta(stored, 'v'), 'v')).requestHeaders).toEqual({});
  });

  it('reads a version stored before pages had Markdown, and writes none for a page without', async () => {
    const page = samplePage('http://cells.test/old', 1, { markdown: null });
    const cells = await encodePage(page, 4096);
    expect(cells.map((cell) => cell.qualifier)).toEqual(['body', 'headers', 'text', 'meta']);
    const stored = version(1, cells);
    expect(await decodePage(stored, await decodeMeta(stored, 'v'), 'v')).toMatchObject({ markdown: null });
  });

  it('decodes a gzip body once at write, and returns it decoded', async () => {
    const body = Buffer.from('<html>'.concat('x'.repeat(10_000)));
    const gzipped = gzipSync(body);
    const page = samplePage('http://cells.test/gz', 1, {
      body: gzipped,
      bodyEncoding: 'gzip',
      bodyLength: body.length,
    });
    const cells = await encodePage(page, 4096);
    expect(cells[0]!.value.subarray(1).equals(gzipped)).toBe(true);
    const stored = version(1, cells);
    const read = await decodePage(stored, await decodeMeta(stored, 'v'), 'v');
    expect(read).toMatchObject({ bodyEncoding: 'identity', bodyLength: body.length });
    expect(read.body.equals(body)).toBe(true);
  });

  it('stores a small gzip body decoded, under the threshold', async () => {
    const page = samplePage('http://cells.test/small-gz', 1, { body: gzipSync('tiny'), bodyEncoding: 'gzip' });
    const [body] = await encodePage(page, 4096);
    expect(body!.value.equals(Buffer.concat([Buffer.from([CellEncoding.identity]), Buffer.from('tiny')]))).toBe(true);
  });

  it('refuses a body in an unknown encoding or a corrupt gzip body, naming the URL', async () => {
    await expect(encodePage(samplePage('http://cells.test/br', 1, { bodyEncoding: 'br' }), 4096)).rejects.toThrow(
      /http:\/\/cells.test\/br: unsupported bodyEncoding "br"/,
    );
    await expect(
      encodePage(samplePage('http://cells.test/bad', 1, { bodyEncoding: 'gzip', body: Buffer.from('not gzip') }), 4096),
    ).rejects.toBeInstanceOf(CellEncodingError);
  });

  it('groups a row’s cells into versions, newest first, ignoring other families and qualifiers', () => {
    const value = Buffer.from([0]);
    const versions = groupVersions([
      { column: 'p:body', timestamp: 3, value },
      { column: 'p:body', timestamp: 1, value },
      { column: 'p:meta', timestamp: 3, value },
      { column: 'p:meta', timestamp: 1, value },
      { column: 'p:unknown', timestamp: 2, value },
      { column: 'x:body', timestamp: 2, value },
      { column: 'p:meta', timestamp: 2, value },
    ]);
    expect(versions.map((entry) => [entry.timestamp, [...entry.cells.keys()].sort()])).toEqual([
      [3, ['body', 'meta']],
      [2, ['meta']],
      [1, ['body', 'meta']],
    ]);
  });

  it('refuses a version that lacks a cell', async () => {
    const cells = await encodePage(samplePage('http://cells.test/partial', 1), 4096);
    const partial = version(
      1,
      cells.filter((cell) => cell.qualifier !== 'body'),
    );
    await expect(decodePage(partial, await decodeMeta(partial, 'row r'), 'row r')).rejects.toThrow(
      'row r: cell p:body is missing',
    );
  });
});
