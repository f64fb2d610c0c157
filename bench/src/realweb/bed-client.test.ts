import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedTruth, scoreCrawl } from './bed-client.js';

/**
 * bed.py on a bed of three pages written here (no nginx: the access log is written too), scoring a
 * crawler without a link base from the list of URLs it kept.
 */
describe('bed.py score --stored', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bed-client-'));
  const origin = 'http://127.0.0.1:18999';
  const previousStackDir = process.env.CRAWLER_STACK_DIR;
  const page = (body: string) => `<html><body><p>${body}</p></body></html>`;

  beforeAll(() => {
    const root = join(dir, 'site');
    mkdirSync(root);
    writeFileSync(join(root, 'index.html'), page('<a href="a.html#part">a</a> <a href="b.html">b</a>'));
    writeFileSync(join(root, 'a.html'), page('the first page of words'));
    writeFileSync(join(root, 'b.html'), page('another page with other words'));
    const accessLog = join(dir, 'access.log');
    const request = (uri: string, ua: string) =>
      JSON.stringify({ port: 18999, uri, status: 200, ua, inm: '', ims: '' });
    writeFileSync(
      accessLog,
      [request('/', 'tok/1.0'), request('/a.html', 'tok/1.0'), request('/b.html', 'tok/1.0'), request('/', 'other/1.0')]
        .map((line) => `${line}\n`)
        .join(''),
    );
    mkdirSync(join(dir, 'realweb'));
    const sites = [{ name: 'git', origin, root, package: 'test', robots: null }];
    writeFileSync(join(dir, 'realweb', 'bed.json'), JSON.stringify({ accessLog, sites }));
    process.env.CRAWLER_STACK_DIR = dir;
  });
  afterAll(() => {
    if (previousStackDir === undefined) delete process.env.CRAWLER_STACK_DIR;
    else process.env.CRAWLER_STACK_DIR = previousStackDir;
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts a page kept under a fragment as that page, and a page listed twice as stored twice', async () => {
    const truthFile = join(dir, 'truth.json');
    expect((await bedTruth(truthFile)).pages.map((entry) => entry.url)).toEqual([
      `${origin}/`,
      `${origin}/a.html`,
      `${origin}/b.html`,
    ]);
    const storedList = join(dir, 'stored.txt');
    writeFileSync(storedList, `${origin}/a.html#part\n${origin}/b.html\n${origin}/b.html\n`);
    const score = await scoreCrawl(truthFile, 'tok', { storedList });
    expect(score).toMatchObject({
      requests: 3,
      truthPagesRequested: 3,
      notStored: [`${origin}/`],
      storedTwice: [`${origin}/b.html`],
      duplicates: 0,
      falseDuplicates: [],
    });
  });
});
