import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createScratchDir, KEEP_TEST_FILES, removeScratchDir } from './scratch-dir.js';

describe('scratch dirs of the stack tests', () => {
  it('are removed with their logs, or kept and named when CRAWLER_KEEP_TEST_FILES is set', () => {
    const gone = createScratchDir('scratch-test');
    writeFileSync(join(gone, 'service.log'), 'line\n');
    removeScratchDir(gone, {});
    expect(existsSync(gone)).toBe(false);

    const kept = createScratchDir('scratch-test');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    removeScratchDir(kept, { [KEEP_TEST_FILES]: '1' });
    expect(existsSync(kept)).toBe(true);
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining(kept));
    stderr.mockRestore();
    rmSync(kept, { recursive: true });
  });
});
