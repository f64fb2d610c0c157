import { describe, expect, it } from 'vitest';
import { anchorHrefs, metaRefreshTarget } from './html-scan.js';
import { pageSignals, renderingChanged } from './page-signals.js';

describe('what rendering changed', () => {
  const plain =
    '<html><body><p>Short.</p><a href="/a">A</a><a href="mailto:x@y.z">mail</a><a href="/a#top">again</a></body></html>';

  it('reads links as absolute URLs without fragments, http(s) only', () => {
    expect([...pageSignals(plain, 'http://site.test/page').links]).toEqual(['http://site.test/a']);
    expect(
      anchorHrefs(
        `<AREA shape=rect HREF='/map'><a class="x" href=/plain>p</a><a name="n">n</a><a href="/q?a=1&amp;b=2">`,
      ),
    ).toEqual(['/map', '/plain', '/q?a=1&b=2']);
  });

  it('counts a new link or clearly more text as a change, not the same page re-serialized', () => {
    const before = pageSignals(plain, 'http://site.test/page');
    const reserialized = pageSignals(
      '<html><head></head><body><p>Short.</p><a href="http://site.test/a">A</a></body></html>',
      'http://site.test/page',
    );
    expect(renderingChanged(before, reserialized)).toBe(false);
    expect(renderingChanged(before, pageSignals(`${plain}<a href="/b">B</a>`, 'http://site.test/page'))).toBe(true);
    expect(
      renderingChanged(
        before,
        pageSignals(`${plain}<p>${'More words arrive. '.repeat(10)}</p>`, 'http://site.test/page'),
      ),
    ).toBe(true);
    expect(renderingChanged(before, pageSignals(`${plain}<p>Tiny.</p>`, 'http://site.test/page'))).toBe(false);
  });

  it('finds where a meta refresh sends the browser', () => {
    expect(
      metaRefreshTarget('<meta http-equiv="refresh" content="0; url=/next?a=1&amp;b=2">', 'http://site.test/dir/'),
    ).toBe('http://site.test/next?a=1&b=2');
    expect(metaRefreshTarget("<META HTTP-EQUIV=Refresh CONTENT='5;URL=other.html'>", 'http://site.test/dir/')).toBe(
      'http://site.test/dir/other.html',
    );
    expect(metaRefreshTarget('<meta name="refresh" content="0; url=/x">', 'http://site.test/')).toBeNull();
  });
});
