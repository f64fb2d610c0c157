import { builtModule, rawBody, WorkerPool } from '@crawler/core';
import {
  extractDocument,
  type DocumentInput,
  type DocumentOptions,
  type ExtractedDocument,
} from './extract-document.js';

/** A body as it travels on the bus, with what extraction needs beside it. */
export interface EncodedDocumentInput extends Omit<DocumentInput, 'body'> {
  body: Buffer;
  /** The bus compression of the body ('identity' or 'gzip'). */
  bodyEncoding: string;
  /** The decoded markup is needed after extraction (extraction rules): without, `source` may be empty. */
  keepSource: boolean;
}

/** What a worker of the pool is sent: the body's own bytes, moved, with the options of its extraction. */
export interface ExtractTask extends Omit<EncodedDocumentInput, 'body'> {
  body: Uint8Array;
  options: DocumentOptions;
}

export interface DocumentExtractor {
  extract(input: EncodedDocumentInput, options: DocumentOptions): Promise<ExtractedDocument>;
  /** Threads running now (0 on this thread). */
  readonly threads: number;
  close(): Promise<void>;
}

/** How long a closing extractor lets its threads finish what they hold. */
const CLOSE_DRAIN_MS = 10_000;

/**
 * Extraction of one document, from the bus's bytes to links and text: on this thread (`workers`
 * 0) or spread over `workers` threads, so a process parses on more than one core. A thread is sent
 * a copy of the (compressed) body, moved rather than copied again, and undoes the bus compression
 * itself; it answers with plain data. A thread that dies fails its pages with a retriable error.
 */
export function createDocumentExtractor(
  workers: number,
  /** The thread's module (tests use one that dies). */
  script?: URL,
): DocumentExtractor {
  if (workers === 0)
    return {
      extract: (input, options) =>
        extractDocument({ ...input, body: rawBody(input.body, input.bodyEncoding) }, options),
      threads: 0,
      close: async () => {},
    };
  const pool = new WorkerPool<ExtractTask, ExtractedDocument>({
    name: 'linkextract-parse',
    script: script ?? builtModule(import.meta.url, 'extract-document-worker'),
    size: workers,
  });
  return {
    extract(input, options) {
      // A view of the message's bytes shares their buffer, which must neither be moved nor cloned whole.
      const body = new Uint8Array(input.body);
      return pool.run({ ...input, body, options }, [body.buffer]);
    },
    get threads() {
      return pool.threads;
    },
    close: () => pool.close(CLOSE_DRAIN_MS),
  };
}
