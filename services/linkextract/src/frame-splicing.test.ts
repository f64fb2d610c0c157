import { describe, expect, it } from 'vitest';
import { extractLimitsOf, loadLinkextractConfig } from './config.js';
import { spliceFrames, type FrameFetcher } from './frame-splicing.js';
import type { RawLink } from './html/raw-link.js';

const limits = extractLimitsOf(loadLinkextractConfig({ env: {} }));
const options = {
  maxFrames: 4,
  timeoutMs: 5000,
  document: { limits, maxInputBytes: 1 << 20, extract: { textLinks: false, feedLinks: false, robotsAgent: null } },
};
const frame = (href: string): RawLink => ({ href, anchor: null, rel: null, source: 'iframe' });

describe('frame splicing', () => {
  it('fetches each frame once by its canonical URL and never the page itself behind a fragment', async () => {
    const asked: string[] = [];
    const fetcher: FrameFetcher = {
      fetchFrame: (url) => {
        asked.push(url);
        return Promise.resolve({
          finalUrl: url,
          mediaType: 'text/html',
          charset: 'utf-8',
          body: Buffer.from(`<p>${new URL(url).pathname}</p>`),
        });
      },
    };
    const page = new URL('http://a.test/dir/page');
    const spliced = await spliceFrames(
      { text: 'page text', markdown: 'page *text*' },
      [frame('#'), frame('page#top'), frame('f.html#'), frame('f.html'), frame('g.html#x')],
      page,
      page,
      fetcher,
      options,
    );
    expect(asked).toEqual(['http://a.test/dir/f.html', 'http://a.test/dir/g.html']);
    expect(spliced).toEqual({
      text: 'page text\n/dir/f.html\n/dir/g.html',
      markdown: 'page *text*\n\n/dir/f.html\n\n/dir/g.html',
      spliced: 2,
      failed: 0,
      markdownCapped: false,
    });
  });
});
