import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadRuntimeConfig, Schemas, silentLogger, type StoredPage } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createPageStore } from './create-ports.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A page big and varied enough that gzip levels give different sizes. */
function page(): StoredPage {
  const paragraphs = Array.from(
    { length: 2000 },
    (_, i) => `<p>Item ${i} costs ${(i * 7919) % 1000} and ships in ${(i * 31) % 17} days.</p>`,
  );
  const body = Buffer.from(`<html><body>${paragraphs.join('\n')}</body></html>`);
  return { ...sampleMessages[Schemas.StoredPage], body, bodyEncoding: 'identity', bodyLength: body.length };
}

/** Bytes of WARC data the embedded page store writes for one page with this environment. */
async function warcBytes(env: NodeJS.ProcessEnv): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'warc-level-'));
  dirs.push(dataDir);
  const store = await createPageStore(
    loadRuntimeConfig({ env: { CRAWLER_PAGE_STORE: 'warc', CRAWLER_DATA_DIR: dataDir } }),
    silentLogger(),
    { env },
  );
  await store.put([page()]);
  await store.close();
  const warc = join(dataDir, 'warc');
  return readdirSync(warc)
    .filter((name) => name.endsWith('.warc.gz'))
    .reduce((sum, name) => sum + statSync(join(warc, name)).size, 0);
}

describe('createPageStore (WARC)', () => {
  it('compresses at WARC_GZIP_LEVEL, 6 when unset', async () => {
    const [fastest, unset, six, smallest] = await Promise.all([
      warcBytes({ WARC_GZIP_LEVEL: '1' }),
      warcBytes({}),
      warcBytes({ WARC_GZIP_LEVEL: '6' }),
      warcBytes({ WARC_GZIP_LEVEL: '9' }),
    ]);
    // Record ids are random, so the same page at the same level varies by a few bytes; levels differ by hundreds here.
    expect(Math.abs(unset - six)).toBeLessThan(50);
    expect(fastest - unset).toBeGreaterThan(200);
    expect(unset - smallest).toBeGreaterThan(200);
  });

  it('refuses a bad WARC_GZIP_LEVEL by name before it creates the folder', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'warc-refused-'));
    dirs.push(parent);
    const dataDir = join(parent, 'data');
    const runtime = loadRuntimeConfig({ env: { CRAWLER_PAGE_STORE: 'warc', CRAWLER_DATA_DIR: dataDir } });
    await expect(createPageStore(runtime, silentLogger(), { env: { WARC_GZIP_LEVEL: 'fast' } })).rejects.toThrow(
      ConfigError,
    );
    await expect(createPageStore(runtime, silentLogger(), { env: { WARC_GZIP_LEVEL: '10' } })).rejects.toThrow(
      /invalid setting WARC_GZIP_LEVEL/,
    );
    expect(existsSync(dataDir)).toBe(false);
  });
});
