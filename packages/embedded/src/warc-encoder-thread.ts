import { BackendError, ErrorCode } from '@crawler/core';
import { Worker } from 'node:worker_threads';
import { builtModule } from './built-module.js';
import type { EncodeReply } from './warc-encoder-worker.js';
import type { EncodedCapture, WarcCaptureInput } from './warc-page-encoding.js';

interface Pending {
  resolve: (captures: EncodedCapture[]) => void;
  reject: (error: unknown) => void;
}

/**
 * WARC records are digested and gzipped on a thread of their own: in embedded mode the whole loop
 * shares one event loop, and this was an eighth of its work. A thread that dies fails only the
 * batches it held (retriable) and the next batch starts a new one.
 */
export class WarcEncoderThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Threads that died while open: a test hook. */
  crashes = 0;

  /** `script` replaces the encoder module (tests use one that dies). */
  constructor(
    private readonly gzipLevel: number,
    private readonly script: URL = builtModule(import.meta.url, 'warc-encoder-worker'),
  ) {}

  /** Each page's body must own its buffer: it is moved to the thread, not copied. */
  encode(captures: WarcCaptureInput[]): Promise<EncodedCapture[]> {
    const worker = this.worker ?? this.spawn();
    const id = this.nextId++;
    // Held open while a batch is out, so a process waiting on a write does not exit under it.
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage(
        { id, captures },
        captures.flatMap((capture) => (capture.kind === 'page' ? [capture.body.buffer as ArrayBuffer] : [])),
      );
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll(new BackendError('the WARC encoder was closed'));
    await worker?.terminate();
  }

  private spawn(): Worker {
    // No flags of the parent: a worker refuses process-wide ones (--max-old-space-size), and the test
    // runner's resolution conditions would pick TypeScript sources the thread cannot load.
    const worker = new Worker(this.script, {
      workerData: { gzipLevel: this.gzipLevel },
      name: 'warc-encoder',
      execArgv: [],
    });
    // An idle encoder must not keep a finished process alive.
    worker.unref();
    worker.on('message', (reply: EncodeReply) => {
      const batch = this.pending.get(reply.id);
      if (!batch) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok)
        batch.resolve(
          reply.captures.map((capture) => ({
            ...capture,
            bytes: Buffer.from(capture.bytes.buffer, capture.bytes.byteOffset, capture.bytes.byteLength),
          })),
        );
      else
        batch.reject(
          new BackendError(`cannot encode WARC records: ${reply.message}`, { code: ErrorCode.BACKEND_REFUSED }),
        );
    });
    let failure: unknown = null;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (exitCode) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.crashes++;
      const reason = failure instanceof Error ? failure.message : `exit code ${exitCode}`;
      this.failAll(new BackendError(`the WARC encoder thread stopped: ${reason}`, { cause: failure ?? undefined }));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: unknown): void {
    const batches = [...this.pending.values()];
    this.pending.clear();
    for (const batch of batches) batch.reject(error);
  }
}
