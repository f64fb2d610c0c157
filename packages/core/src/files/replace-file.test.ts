import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaceFile } from './replace-file.js';

describe('replaceFile', () => {
  it('replaces a symlink planted at the path and leaves the file it pointed to untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replace-file-'));
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const path = join(dir, 'summary.json');
    symlinkSync(victim, path);
    await replaceFile(path, '{"ok":true}\n');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('{"ok":true}\n');
    expect(readdirSync(dir).sort()).toEqual(['summary.json', 'victim.txt']);
  });

  it('replaces an existing file whole and leaves no temporary file when it cannot write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replace-file-'));
    const path = join(dir, 'a.json');
    writeFileSync(path, 'old content that is longer');
    await replaceFile(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    // A folder in the way: the rename fails, the temporary file is removed.
    mkdirSync(join(dir, 'taken', 'inside'), { recursive: true });
    await expect(replaceFile(join(dir, 'taken'), 'x')).rejects.toThrow();
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'taken']);
  });
});
