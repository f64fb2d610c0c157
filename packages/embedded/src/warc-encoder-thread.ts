import { BackendError, builtModule, ErrorCode, errorMessage, WorkerCrashedError, WorkerPool } from '@crawler/core';
import type { EncodeRequest } from './warc-encoder-worker.js';
import type { EncodedCapture, WarcCaptureInput } from './warc-page-encoding.js';

/**
 * WARC records are digested and gzipped on a thread of their own: in embedded mode the whole loop
 * shares one event loop, and this was an eighth of its work. A thread that dies fails only the
 * batches it held (retriable) and the next batch starts a new one.
 */
export class WarcEncoderThread {
  private readonly pool: WorkerPool<EncodeRequest, EncodedCapture[]>;

  /** `script` replaces the encoder module (tests use one that dies). */
  constructor(gzipLevel: number, script: URL = builtModule(import.meta.url, 'warc-encoder-worker')) {
    this.pool = new WorkerPool({ name: 'warc-encoder', script, size: 1, workerData: { gzipLevel } });
  }

  /** Threads that died while open: a test hook. */
  get crashes(): number {
    return this.pool.crashes;
  }

  /** Each page's body must own its buffer: it is moved to the thread, not copied. */
  async encode(captures: WarcCaptureInput[]): Promise<EncodedCapture[]> {
    const bodies = captures.flatMap((capture) => (capture.kind === 'page' ? [capture.body.buffer as ArrayBuffer] : []));
    try {
      const encoded = await this.pool.run({ captures }, bodies);
      return encoded.map((capture) => ({
        ...capture,
        bytes: Buffer.from(capture.bytes.buffer, capture.bytes.byteOffset, capture.bytes.byteLength),
      }));
    } catch (error) {
      if (error instanceof WorkerCrashedError)
        throw new BackendError(`the WARC encoder thread stopped: ${error.reason}`, { cause: error });
      if (error instanceof BackendError) throw error;
      throw new BackendError(`cannot encode WARC records: ${errorMessage(error)}`, {
        code: ErrorCode.BACKEND_REFUSED,
        cause: error,
      });
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
