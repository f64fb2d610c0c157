import { rawBody, serveWorkerTasks } from '@crawler/core';
import type { ExtractTask } from './document-extractor.js';
import { extractDocument, type ExtractedDocument } from './extract-document.js';

/** A thread of link extraction's pool: one document per task, from the bus's bytes to plain data. */
serveWorkerTasks(
  async ({ body, bodyEncoding, keepSource, options, ...input }: ExtractTask): Promise<ExtractedDocument> => {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const document = await extractDocument({ ...input, body: rawBody(bytes, bodyEncoding) }, options);
    // The markup goes back only when the parent reads it again: it is as large as the page.
    return keepSource ? document : { ...document, source: '' };
  },
);
