import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CellEncoding, decodeCell, encodeCell } from './cell-codec.js';
import { CellEncodingError } from './hbase-errors.js';

const text = (bytes: number) => Buffer.from('<p>crawl</p>'.repeat(Math.ceil(bytes / 12)).slice(0, bytes));

describe('cell encoding', () => {
  it('stores a payload up to the threshold as it is, behind the identity byte', async () => {
    const payload = text(4096);
    const cell = await encodeCell(payload, { compressMinBytes: 4096 });
    expect(cell[0]).toBe(CellEncoding.identity);
    expect(cell.subarray(1).equals(payload)).toBe(true);
    expect((await decodeCell(cell, 'cell')).equals(payload)).toBe(true);
  });

  it('gzips a payload past the threshold', async () => {
    const payload = text(4097);
    const cell = await encodeCell(payload, { compressMinBytes: 4096 });
    expect(cell[0]).toBe(CellEncoding.gzip);
    expect(cell.length).toBeLessThan(payload.length / 5);
    expect((await decodeCell(cell, 'cell')).equals(payload)).toBe(true);
  });

  it('keeps an incompressible payload as it is (gzip would make it larger)', async () => {
    const payload = randomBytes(50_000);
    const cell = await encodeCell(payload, { compressMinBytes: 4096 });
    expect(cell[0]).toBe(CellEncoding.identity);
    expect(cell.length).toBe(payload.length + 1);
  });

  it('reuses a gzip stream it is given instead of compressing again', async () => {
    const payload = text(100_000);
    const gzipped = gzipSync(payload, { level: 1 });
    const cell = await encodeCell(payload, { compressMinBytes: 4096, gzipped });
    expect(cell.subarray(1).equals(gzipped)).toBe(true);
    expect((await decodeCell(cell, 'cell')).equals(payload)).toBe(true);
  });

  it('round-trips every byte value and the empty payload', async () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    for (const payload of [Buffer.alloc(0), all, Buffer.concat(Array.from({ length: 100 }, () => all))]) {
      expect((await decodeCell(await encodeCell(payload, { compressMinBytes: 4096 }), 'cell')).equals(payload)).toBe(
        true,
      );
    }
  });

  it('refuses cells it cannot read, naming the cell', async () => {
    await expect(decodeCell(Buffer.from([0x02, 1, 2]), 'table t row "r" p:body')).rejects.toThrow(
      /table t row "r" p:body: unknown cell encoding byte 0x02/,
    );
    await expect(decodeCell(Buffer.alloc(0), 'c')).rejects.toBeInstanceOf(CellEncodingError);
    await expect(decodeCell(Buffer.from([CellEncoding.gzip, 1, 2, 3]), 'c')).rejects.toThrow(/c: corrupt gzip data/);
  });
});
