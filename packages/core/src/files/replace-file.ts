import { randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a whole file by writing a new temporary file beside it and renaming it over the old one.
 * Readers see the old content or the new, never a half-written file; the temporary name is
 * random and created exclusively, and a rename replaces a symlink planted at `path` instead of
 * following it, so nothing outside the folder is ever written through a link.
 */
export function replaceFile(path: string, data: string | Uint8Array): Promise<void> {
  return replaceFileWith(path, (handle) => handle.writeFile(data));
}

/** The same, for content too large to hold at once: `write` fills the temporary file. */
export async function replaceFileWith(path: string, write: (handle: FileHandle) => Promise<void>): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o644);
  try {
    try {
      await write(handle);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    // A full disk leaves no half-written temporary file behind.
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
