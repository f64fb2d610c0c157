import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readSync } from 'node:fs';

const CHUNK = 64 * 1024;

/**
 * Cuts a torn last line (a crash in the middle of an append) off a line file, so that the next
 * append starts a line of its own instead of gluing itself to the fragment, which would lose both.
 * Returns the file's size afterwards (0 when it does not exist).
 */
export function cutTornTail(path: string): number {
  if (!existsSync(path)) return 0;
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(CHUNK);
    for (let end = size; end > 0;) {
      const start = Math.max(0, end - CHUNK);
      const read = readSync(fd, buffer, 0, end - start, start);
      const newline = buffer.subarray(0, read).lastIndexOf(0x0a);
      if (newline >= 0) {
        const keep = start + newline + 1;
        if (keep < size) ftruncateSync(fd, keep);
        return keep;
      }
      end = start;
    }
    if (size > 0) ftruncateSync(fd, 0);
    return 0;
  } finally {
    closeSync(fd);
  }
}
