import { parentPort, workerData } from 'node:worker_threads';
import { encodeWarcCapture, type EncodedCapture, type WarcCaptureInput } from './warc-page-encoding.js';

/** The WARC encoder's thread: encodes each batch it is sent and answers with the records' bytes. */
export interface EncodeRequest {
  id: number;
  captures: WarcCaptureInput[];
}

export type EncodeReply =
  { id: number; ok: true; captures: EncodedCapture[] } | { id: number; ok: false; message: string };

const { gzipLevel } = workerData as { gzipLevel: number };
parentPort!.on('message', ({ id, captures }: EncodeRequest) => {
  let reply: EncodeReply;
  try {
    reply = { id, ok: true, captures: captures.map((capture) => encodeWarcCapture(capture, gzipLevel)) };
  } catch (error) {
    reply = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  // Copied, not transferred: small records share Node's buffer pool, which a transfer would detach.
  parentPort!.postMessage(reply);
});
