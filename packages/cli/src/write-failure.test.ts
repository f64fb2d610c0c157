import { BackendError } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { localWriteError, watchWrites, WriteFailedError, WriteFailureLatch } from './write-failure.js';

function systemError(code: string, syscall: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, syscall, errno: -1 });
}

describe('write failures', () => {
  it('are told from other errors by the system error in the cause chain', () => {
    const full = systemError('ENOSPC', 'write', 'ENOSPC: no space left on device, write');
    expect(localWriteError(new BackendError('cannot write WARC data in out/warc', { cause: full }))).toBe(full);
    expect(localWriteError(systemError('EFBIG', 'write', 'EFBIG: file too large, write'))).not.toBeNull();
    expect(localWriteError(systemError('EACCES', 'open', "EACCES: permission denied, open 'x'"))).not.toBeNull();
    // Not a write the disk refused: a network failure, a missing file, a refusal to read.
    expect(localWriteError(systemError('ECONNREFUSED', 'connect', 'connect ECONNREFUSED'))).toBeNull();
    expect(localWriteError(systemError('ENOENT', 'open', 'ENOENT'))).toBeNull();
    expect(localWriteError(systemError('EACCES', 'scandir', 'EACCES'))).toBeNull();
    expect(localWriteError(new BackendError('HBase answered 503'))).toBeNull();
  });

  it('of a watched port abort the latch once, with one line naming where, and still reach the caller', async () => {
    const latch = new WriteFailureLatch();
    const full = systemError('ENOSPC', 'write', 'ENOSPC: no space left on device, write');
    const store = {
      calls: 0,
      async put(): Promise<void> {
        this.calls++;
        throw new BackendError('cannot write WARC data in out/warc', { cause: full });
      },
      async get(): Promise<string> {
        throw new BackendError('HBase answered 503');
      },
    };
    const watched = watchWrites(store, 'the page store', latch);
    await expect(watched.get()).rejects.toThrow('HBase answered 503');
    expect(latch.signal.aborted).toBe(false);
    await expect(watched.put()).rejects.toThrow('cannot write WARC data');
    await expect(watched.put()).rejects.toThrow('cannot write WARC data');
    expect(store.calls).toBe(2);
    expect(latch.signal.aborted).toBe(true);
    expect(latch.failure).toBeInstanceOf(WriteFailedError);
    expect(latch.failure!.message).toBe(
      'cannot write the page store: cannot write WARC data in out/warc: ENOSPC: no space left on device, write',
    );
  });
});
