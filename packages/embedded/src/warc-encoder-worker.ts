import { serveWorkerTasks } from '@crawler/core';
import { workerData } from 'node:worker_threads';
import { encodeWarcCapture, type EncodedCapture, type WarcCaptureInput } from './warc-page-encoding.js';

/** The WARC encoder's thread: encodes each batch it is sent and answers with the records' bytes. */
export interface EncodeRequest {
  captures: WarcCaptureInput[];
}

const { gzipLevel } = workerData as { gzipLevel: number };
// Answers are copied, not transferred: small records share Node's buffer pool, which a transfer would detach.
serveWorkerTasks(({ captures }: EncodeRequest): EncodedCapture[] =>
  captures.map((capture) => encodeWarcCapture(capture, gzipLevel)),
);
