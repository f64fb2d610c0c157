import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWeb } from '@crawler/testweb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli.js';
import { OUTPUT_MARKER, prepareOutputFolder } from './output-folder.js';
import { capture } from './test-support/capture-output.js';

/** A user's folder: files the crawler did not make. */
function userFolder(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'photos'), { recursive: true });
  writeFileSync(join(dir, 'notes.txt'), 'precious');
  writeFileSync(join(dir, 'photos', 'a.jpg'), 'jpeg');
  return dir;
}

describe('the output folder', () => {
  afterEach(() => vi.restoreAllMocks());

  it('crawler demo checks every flag before it touches --out, and never empties a folder it did not make', async () => {
    const root = mkdtempSync(join(tmpdir(), 'out-folder-'));
    const dir = userFolder(root, 'mine');
    const io = capture();
    expect(await runCli(['demo', '--out', dir, '--hosts', 'abc'])).toBe(2);
    expect(io.err()).toBe('crawler demo: --hosts must be a whole number >= 6, got "abc"\n');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('precious');

    // Good flags: the folder is refused, not emptied.
    expect(await runCli(['demo', '--out', dir, '--quiet'])).toBe(2);
    expect(io.err()).toMatch(/crawler demo: --out .*mine: holds files the crawler did not make/);
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'photos']);
  });

  it('--out .. (a parent folder) is refused by demo and by run, and left as it was', async () => {
    const root = userFolder(mkdtempSync(join(tmpdir(), 'out-folder-')), 'parent');
    mkdirSync(join(root, 'child'));
    const parent = join(root, 'child', '..');
    const io = capture();
    expect(await runCli(['demo', '--out', parent, '--quiet'])).toBe(2);
    expect(await runCli(['run', '--seed', 'http://127.0.0.1:9/', '--out', parent, '--quiet'])).toBe(2);
    expect(io.err().trim().split('\n')).toHaveLength(2);
    expect(readdirSync(root).sort()).toEqual(['child', 'notes.txt', 'photos']);
  });

  it('a file, or a path under a file, as --out is one line naming --out, exit 2', async () => {
    const root = mkdtempSync(join(tmpdir(), 'out-folder-'));
    writeFileSync(join(root, 'a-file'), 'x');
    const io = capture();
    for (const out of [join(root, 'a-file'), join(root, 'a-file', 'sub')]) {
      expect(await runCli(['run', '--seed', 'http://127.0.0.1:9/', '--out', out, '--quiet'])).toBe(2);
    }
    const lines = io.err().trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^crawler run: --out .*a-file: is a file, not a folder/);
    expect(lines[1]).toMatch(/^crawler run: --out .*a-file\/sub: ENOTDIR/);
  });

  it('marks a folder it creates or adopts empty; demo empties only a marked one, without following symlinks', async () => {
    const root = mkdtempSync(join(tmpdir(), 'out-folder-'));
    const outside = userFolder(root, 'outside');
    const made = join(root, 'new', 'out');
    await prepareOutputFolder('demo', made, { fresh: true });
    expect(readdirSync(made)).toEqual([OUTPUT_MARKER]);

    mkdirSync(join(made, 'warc'));
    writeFileSync(join(made, 'warc', 'pages.warc.gz'), 'old crawl');
    symlinkSync(outside, join(made, 'link-to-outside'));
    await prepareOutputFolder('demo', made, { fresh: true });
    expect(readdirSync(made)).toEqual([OUTPUT_MARKER]);
    expect(readdirSync(outside).sort()).toEqual(['notes.txt', 'photos']);

    // A marker planted as a symlink is no marker.
    const planted = userFolder(root, 'planted');
    symlinkSync(join(made, OUTPUT_MARKER), join(planted, OUTPUT_MARKER));
    await expect(prepareOutputFolder('demo', planted, { fresh: true })).rejects.toThrow(/holds files/);
    expect(existsSync(join(planted, 'notes.txt'))).toBe(true);
  });

  it('run resumes in a folder an earlier run made, marked or from before the marker, and keeps what is there', async () => {
    const root = mkdtempSync(join(tmpdir(), 'out-folder-'));
    const earlier = join(root, 'earlier');
    mkdirSync(join(earlier, 'linkbase'), { recursive: true });
    writeFileSync(join(earlier, 'linkbase', 'linkbase.journal.jsonl'), '{}\n');
    writeFileSync(join(earlier, 'crawl.log'), '');
    await prepareOutputFolder('run', earlier, { fresh: false });
    expect(readdirSync(earlier).sort()).toEqual([OUTPUT_MARKER, 'crawl.log', 'linkbase']);
    expect(readFileSync(join(earlier, 'linkbase', 'linkbase.journal.jsonl'), 'utf8')).toBe('{}\n');
    // Demo would not adopt an unmarked crawl folder, but this one is marked now.
    await prepareOutputFolder('demo', earlier, { fresh: true });
    expect(readdirSync(earlier)).toEqual([OUTPUT_MARKER]);
  });

  it('a crawl writes crawl.log and crawl-summary.json in its folder, never through symlinks planted there', async () => {
    const web = await startTestWeb({ profile: 'bench', hosts: 1, pagesPerHost: 30 });
    try {
      const root = mkdtempSync(join(tmpdir(), 'out-folder-'));
      const victims = userFolder(root, 'victims');
      const out = join(root, 'out');
      await prepareOutputFolder('run', out, { fresh: false });
      symlinkSync(join(victims, 'notes.txt'), join(out, 'crawl-summary.json'));
      symlinkSync(join(victims, 'photos', 'a.jpg'), join(out, 'crawl.log'));
      const io = capture();
      const code = await runCli(
        ['run', '--seed', web.seeds[0]!, '--allow-address', '127.0.0.1', '--max-pages', '3'].concat([
          '--delay-ms',
          '0',
          '--quiet',
          '--out',
          out,
        ]),
      );
      expect(code, io.err()).toBe(0);
      expect(readFileSync(join(victims, 'notes.txt'), 'utf8')).toBe('precious');
      expect(readFileSync(join(victims, 'photos', 'a.jpg'), 'utf8')).toBe('jpeg');
      for (const name of ['crawl-summary.json', 'crawl.log'])
        expect(lstatSync(join(out, name)).isFile(), name).toBe(true);
      expect(JSON.parse(readFileSync(join(out, 'crawl-summary.json'), 'utf8'))).toMatchObject({
        stopReason: expect.any(String),
      });
    } finally {
      await web.close();
    }
  });
});
