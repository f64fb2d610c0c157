import { promisify } from 'node:util';
import { gunzip, gunzipSync, gzip, gzipSync, type ZlibOptions } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * Below this size zlib's async path costs the event loop more than compressing in place: each call
 * sets up a stream and a thread-pool hand-off (~100-200 µs of JS), while a 4 KiB page deflates in
 * ~50 µs. Larger inputs go to the thread pool so one big body cannot stall the loop.
 */
export const SYNC_ZLIB_MAX_BYTES = 64 * 1024;

/** gzip of `bytes`: in place when small, on the libuv thread pool when large. */
export async function gzipBytes(bytes: Buffer, options: ZlibOptions = {}): Promise<Buffer> {
  return bytes.length <= SYNC_ZLIB_MAX_BYTES ? gzipSync(bytes, options) : gzipAsync(bytes, options);
}

/** gunzip of `bytes`, by the same rule on the compressed size. */
export async function gunzipBytes(bytes: Buffer, options: ZlibOptions = {}): Promise<Buffer> {
  return bytes.length <= SYNC_ZLIB_MAX_BYTES ? gunzipSync(bytes, options) : gunzipAsync(bytes, options);
}
