import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { replaceFileWith } from '@crawler/core';
import { BinaryHeap } from './binary-heap.js';

/**
 * CDXJ files as replay tools read them: lines in plain string order, which is SURT key, then
 * timestamp (pywb binary-searches them). Keys are ASCII (the SURT key escapes everything else), so
 * JavaScript's string order is the byte order `LC_ALL=C sort` gives.
 */
export function cdxjLinesSorted(lines: readonly string[]): boolean {
  for (let i = 1; i < lines.length; i++) if (lines[i - 1]! > lines[i]!) return false;
  return true;
}

/** Rewrites a CDXJ file in sorted order (a new file renamed over it: a kill leaves the old or the new). */
export async function sortCdxjFile(path: string): Promise<void> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
  if (cdxjLinesSorted(lines)) return;
  lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  await replaceFileWith(path, (handle) => handle.writeFile(lines.length > 0 ? `${lines.join('\n')}\n` : ''));
}

/** Merges sorted CDXJ files into one sorted file, streaming: memory holds one line per input. */
export async function mergeCdxjFiles(inputs: readonly string[], output: string): Promise<number> {
  const readers = inputs.map((path) =>
    createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })[Symbol.asyncIterator](),
  );
  const heap = new BinaryHeap<{ line: string; reader: number }>((a, b) => a.line < b.line);
  const advance = async (reader: number) => {
    for (;;) {
      const next = await readers[reader]!.next();
      if (next.done) return;
      if (next.value) return heap.push({ line: next.value, reader });
    }
  };
  let count = 0;
  await replaceFileWith(output, async (handle) => {
    await Promise.all(readers.map((_, reader) => advance(reader)));
    let chunk: string[] = [];
    while (heap.size > 0) {
      const top = heap.pop()!;
      chunk.push(top.line);
      count++;
      if (chunk.length >= 4096) {
        await handle.write(`${chunk.join('\n')}\n`);
        chunk = [];
      }
      await advance(top.reader);
    }
    if (chunk.length > 0) await handle.write(`${chunk.join('\n')}\n`);
  });
  return count;
}
