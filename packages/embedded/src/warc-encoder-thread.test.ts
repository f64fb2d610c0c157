import { BackendError } from '@crawler/core';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { WarcEncoderThread } from './warc-encoder-thread.js';
import type { WarcPageInput } from './warc-page-encoding.js';
import { parseWarcRecords } from './warc-record.js';

const page = (n: number): WarcPageInput => ({
  kind: 'page',
  url: `http://127.0.0.1/page/${n}`,
  fetchedAt: Date.UTC(2026, 10, 24, 12, 0, n),
  httpHead: 'HTTP/1.1 200 OK\r\ncontent-type: text/html',
  body: new Uint8Array(Buffer.from(`<html><body>page ${n} ${'text '.repeat(n * 50)}</body></html>`)),
  metadata: JSON.stringify({ url: `http://127.0.0.1/page/${n}`, title: `page ${n}` }),
  truncated: null,
  httpRequest: null,
});

describe('WarcEncoderThread', () => {
  const threads: WarcEncoderThread[] = [];
  const open = (...args: ConstructorParameters<typeof WarcEncoderThread>) => {
    const thread = new WarcEncoderThread(...args);
    threads.push(thread);
    return thread;
  };
  afterEach(async () => {
    await Promise.all(threads.splice(0).map((thread) => thread.close()));
  });

  it('answers each page of a batch, in order, with its response and metadata records gzipped', async () => {
    const thread = open(6);
    const inputs = [1, 2, 3].map(page);
    const bodies = inputs.map((input) => Buffer.from(input.body));
    const captures = await thread.encode(inputs);
    expect(captures).toHaveLength(3);
    captures.forEach(({ bytes }, i) => {
      const [response, metadata] = parseWarcRecords(gunzipSync(bytes));
      expect(response!.headers.get('warc-type')).toBe('response');
      expect(response!.headers.get('warc-target-uri')).toBe(`http://127.0.0.1/page/${i + 1}`);
      expect(response!.block.subarray(response!.block.indexOf('\r\n\r\n') + 4).equals(bodies[i]!)).toBe(true);
      expect(metadata!.headers.get('warc-concurrent-to')).toBe(response!.headers.get('warc-record-id'));
      expect(JSON.parse(metadata!.block.toString()).title).toBe(`page ${i + 1}`);
    });
  });

  it('fails a batch it cannot encode with a non-retriable error and goes on with the next', async () => {
    const broken = open(42);
    const error = await broken.encode([page(1)]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BackendError);
    expect((error as BackendError).retriable).toBe(false);
    expect((error as Error).message).toMatch(/cannot encode WARC records/);
    expect(broken.crashes).toBe(0);
  });

  it('fails the batches a dying thread held as retriable, and starts a new thread for the next', async () => {
    const thread = open(6, new URL('./fixtures/dying-worker.mjs', import.meta.url));
    const errors = await Promise.all(
      [thread.encode([page(1)]), thread.encode([page(2)])].map((batch) => batch.catch((caught: unknown) => caught)),
    );
    for (const error of errors) {
      expect(error).toBeInstanceOf(BackendError);
      expect((error as BackendError).retriable).toBe(true);
      expect((error as Error).message).toMatch(/encoder thread stopped: exit code 3/);
    }
    // Each batch met a thread of its own: one that dies is judged alone.
    expect(thread.crashes).toBe(2);
    await expect(thread.encode([page(3)])).rejects.toThrow(/encoder thread stopped/);
    expect(thread.crashes).toBe(3);
  });

  it('rejects what is still out when closed', async () => {
    const thread = open(6);
    const outcome = expect(thread.encode([page(40)])).rejects.toThrow(/closed/);
    await thread.close();
    await outcome;
  });

  it('starts in a process run with flags a worker thread refuses (--max-old-space-size)', () => {
    const built = new URL('../dist/warc-encoder-thread.js', import.meta.url).href;
    const script = `
      const { WarcEncoderThread } = await import(${JSON.stringify(built)});
      const thread = new WarcEncoderThread(6);
      const [record] = await thread.encode([{ kind: 'page', url: 'http://127.0.0.1/', fetchedAt: 0, httpHead: 'HTTP/1.1 200 OK', body: new Uint8Array(8), metadata: '{}', truncated: null}]);
      await thread.close();
      console.log(record.bytes.length > 0 ? 'encoded' : 'empty');`;
    const child = spawnSync(process.execPath, ['--max-old-space-size=256', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('.', import.meta.url)),
    });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('encoded');
  });
});
