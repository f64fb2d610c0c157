import { createGunzip } from 'node:zlib';

export interface Gunzipped {
  bytes: Buffer;
  /** The output reached the cap and the rest was not inflated. */
  capped: boolean;
  /** The stream was corrupt or cut short; `bytes` holds what inflated before that. */
  corrupt: boolean;
}

/**
 * Inflates a gzip body (a .xml.gz sitemap) up to `maxBytes` of output, keeping what came out
 * before a cap or a corrupt tail: a gzip bomb costs at most `maxBytes`, a cut-off file still
 * yields its first entries.
 */
export function gunzipCapped(body: Buffer, maxBytes: number): Promise<Gunzipped> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const gunzip = createGunzip();
    const finish = (capped: boolean, corrupt: boolean) => {
      if (settled) return;
      settled = true;
      gunzip.destroy();
      const bytes = Buffer.concat(chunks);
      resolve({ bytes: bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes, capped, corrupt });
    };
    gunzip.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) finish(true, false);
    });
    gunzip.on('end', () => finish(false, false));
    gunzip.on('error', () => finish(false, true));
    gunzip.end(body);
  });
}
