import { describe, expect, it } from 'vitest';
import { isSavedPage, keptByWget, parseWgetLine } from './wget-log.js';

describe("wget's --no-verbose log", () => {
  it('reads the URL, length and file of a saved line', () => {
    expect(
      parseWgetLine(
        '2026-11-25 14:39:29 URL:http://127.0.0.1:18201/ [13011/13011] -> "127.0.0.1:18201/index.html" [1]',
      ),
    ).toEqual({ url: 'http://127.0.0.1:18201/', bytes: 13011, file: '127.0.0.1:18201/index.html' });
  });

  it('reads a line without a total length (no Content-Length) and a file name with spaces', () => {
    expect(parseWgetLine('2026-11-25 14:39:29 URL:http://h:1/a%20b.html [2048] -> "h:1/a b.html" [1]\n')).toEqual({
      url: 'http://h:1/a%20b.html',
      bytes: 2048,
      file: 'h:1/a b.html',
    });
  });

  it('ignores error lines and the summary', () => {
    for (const line of [
      'http://127.0.0.1:18202/robots.txt:',
      '2026-11-25 14:39:31 ERROR 404: Not Found.',
      'FINISHED --2026-11-25 14:39:32--',
      'Total wall clock time: 3.4s',
      'Downloaded: 1854 files, 68M in 0.1s (591 MB/s)',
    ])
      expect(parseWgetLine(line)).toBeNull();
  });

  it('keeps one file per path, named by the URL that wrote it last', () => {
    const saved = [
      { url: 'http://h/', file: 'h/index.html', bytes: 10 },
      { url: 'http://h/a.html', file: 'h/a.html', bytes: 5 },
      { url: 'http://h/index.html', file: 'h/index.html', bytes: 10 },
    ];
    expect(keptByWget(saved).map((entry) => entry.url)).toEqual(['http://h/index.html', 'http://h/a.html']);
  });

  it('tells pages from other files by the saved name', () => {
    expect(isSavedPage({ url: 'http://h/', file: 'h/index.html', bytes: 1 })).toBe(true);
    expect(isSavedPage({ url: 'http://h/a.HTM', file: 'h/a.HTM', bytes: 1 })).toBe(true);
    expect(isSavedPage({ url: 'http://h/robots.txt', file: 'h/robots.txt', bytes: 1 })).toBe(false);
    expect(isSavedPage({ url: 'http://h/x.py', file: 'h/x.py', bytes: 1 })).toBe(false);
  });
});
