import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/** What one entry was, as the package's manifest lists it. */
export interface ZipEntry {
  path: string;
  bytes: number;
  sha256: string;
}

/** 32-bit fields at this value mean "see the ZIP64 extra field" (APPNOTE 4.5.3). */
const ZIP64 = 0xffffffff;

/**
 * A ZIP file of stored (uncompressed) entries, written front to back: what WACZ asks of its WARC
 * files and indexes, so a replay tool can read a record by offset straight out of the ZIP. Sizes
 * and offsets past 4 GiB take ZIP64 fields; `limit` lowers that bound (tests).
 */
export class StoredZipWriter {
  private offset = 0;
  private readonly central: Buffer[] = [];
  private count = 0;

  constructor(
    private readonly out: FileHandle,
    private readonly limit = ZIP64,
  ) {}

  /** Adds a file, read twice: once for its CRC-32 and SHA-256, once to copy it. */
  async addFile(path: string, source: string, length?: number): Promise<ZipEntry> {
    const range = length === undefined ? {} : { start: 0, end: length - 1 };
    let crc = 0;
    let size = 0;
    const sha = createHash('sha256');
    if (length !== 0)
      for await (const chunk of createReadStream(source, range) as AsyncIterable<Buffer>) {
        crc = crc32(chunk, crc);
        sha.update(chunk);
        size += chunk.length;
      }
    await this.writeHeader(path, crc, size);
    if (length !== 0)
      for await (const chunk of createReadStream(source, range) as AsyncIterable<Buffer>) await this.write(chunk);
    return { path, bytes: size, sha256: sha.digest('hex') };
  }

  async addBuffer(path: string, data: Buffer): Promise<ZipEntry> {
    await this.writeHeader(path, crc32(data), data.length);
    await this.write(data);
    return { path, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
  }

  /** The central directory and its end records; the file is complete after this. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const header of this.central) await this.write(header);
    const size = this.offset - start;
    if (this.count > 0xfffe || start >= this.limit || size >= this.limit) {
      const record = Buffer.alloc(56);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4);
      record.writeUInt16LE(45, 12);
      record.writeUInt16LE(45, 14);
      record.writeBigUInt64LE(BigInt(this.count), 24);
      record.writeBigUInt64LE(BigInt(this.count), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(this.offset), 8);
      locator.writeUInt32LE(1, 16);
      await this.write(Buffer.concat([record, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(this.count, 0xffff), 8);
    end.writeUInt16LE(Math.min(this.count, 0xffff), 10);
    end.writeUInt32LE(Math.min(size, ZIP64), 12);
    end.writeUInt32LE(start >= this.limit ? ZIP64 : start, 16);
    await this.write(end);
  }

  private async writeHeader(path: string, crc: number, size: number): Promise<void> {
    const name = Buffer.from(path, 'utf8');
    const big = size >= this.limit;
    const farOut = this.offset >= this.limit;
    const { time, date } = dosTime(new Date());
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(big ? 45 : 20, 4);
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(big ? ZIP64 : size, 18);
    local.writeUInt32LE(big ? ZIP64 : size, 22);
    local.writeUInt16LE(name.length, 26);
    const localExtra = big ? zip64Extra([size, size]) : Buffer.alloc(0);
    local.writeUInt16LE(localExtra.length, 28);
    const centralExtra = zip64Extra([...(big ? [size, size] : []), ...(farOut ? [this.offset] : [])]);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0300 | 45, 4); // made by: Unix, 4.5
    central.writeUInt16LE(big || farOut ? 45 : 20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(big ? ZIP64 : size, 20);
    central.writeUInt32LE(big ? ZIP64 : size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(centralExtra.length, 30);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    central.writeUInt32LE(farOut ? ZIP64 : this.offset, 42);
    this.central.push(Buffer.concat([central, name, centralExtra]));
    this.count++;
    await this.write(Buffer.concat([local, name, localExtra]));
  }

  private async write(data: Buffer): Promise<void> {
    await this.out.write(data, 0, data.length, null);
    this.offset += data.length;
  }
}

function zip64Extra(values: number[]): Buffer {
  if (values.length === 0) return Buffer.alloc(0);
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  values.forEach((value, i) => extra.writeBigUInt64LE(BigInt(value), 4 + 8 * i));
  return extra;
}

function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((Math.max(1980, at.getUTCFullYear()) - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}
