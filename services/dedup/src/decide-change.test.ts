import { describe, expect, it } from 'vitest';
import { contentDigest } from './content-digest.js';
import { decideChange, needsTemplateRecheck } from './decide-change.js';
import type { Registration } from './registration.js';

const by = (url: string, fetchedAt: number, extra: Partial<Registration> = {}): Registration => ({
  url,
  fetchedAt,
  template: '0',
  verdict: null,
  nearOf: null,
  distance: null,
  pageChars: null,
  sketch: null,
  ...extra,
});
const first = by('a', 100);

describe('decideChange', () => {
  it('tells new, changed, unchanged and duplicate apart', () => {
    expect(decideChange({ url: 'a', fetchedAt: 100, digest: 'd1', previousDigest: null, registeredBy: null })).toEqual({
      change: 'new',
      duplicateOf: null,
      distance: null,
    });
    expect(decideChange({ url: 'a', fetchedAt: 200, digest: 'd2', previousDigest: 'd1', registeredBy: null })).toEqual({
      change: 'changed',
      duplicateOf: null,
      distance: null,
    });
    expect(decideChange({ url: 'a', fetchedAt: 200, digest: 'd1', previousDigest: 'd1', registeredBy: first })).toEqual(
      { change: 'unchanged', duplicateOf: null, distance: null },
    );
    expect(decideChange({ url: 'b', fetchedAt: 200, digest: 'd1', previousDigest: null, registeredBy: first })).toEqual(
      { change: 'duplicate', duplicateOf: 'a', distance: null },
    );
  });

  it('keeps a copy a duplicate on its re-crawl instead of calling it unchanged', () => {
    expect(
      decideChange({ url: 'b', fetchedAt: 300, digest: 'd1', previousDigest: 'd1', registeredBy: first }),
    ).toMatchObject({ change: 'duplicate', duplicateOf: 'a' });
  });

  it("repeats a near-duplicate decision stored with the page's own registration", () => {
    const near = by('b', 200, { nearOf: 'a', distance: 2 });
    expect(decideChange({ url: 'b', fetchedAt: 300, digest: 'd9', previousDigest: 'd9', registeredBy: near })).toEqual({
      change: 'near_duplicate',
      duplicateOf: 'a',
      distance: 2,
    });
    expect(decideChange({ url: 'b', fetchedAt: 200, digest: 'd9', previousDigest: null, registeredBy: near })).toEqual({
      change: 'near_duplicate',
      duplicateOf: 'a',
      distance: 2,
    });
  });

  it('repeats the decision for a redelivered message of the same fetch', () => {
    expect(
      decideChange({ url: 'a', fetchedAt: 100, digest: 'd1', previousDigest: null, registeredBy: first }),
    ).toMatchObject({ change: 'new' });
  });

  it('calls a second fetch of the same content unchanged before the link base knows the first', () => {
    expect(
      decideChange({ url: 'a', fetchedAt: 150, digest: 'd1', previousDigest: null, registeredBy: first }),
    ).toMatchObject({ change: 'unchanged' });
  });

  it('calls a page that went back to an older version changed', () => {
    expect(
      decideChange({ url: 'a', fetchedAt: 300, digest: 'd1', previousDigest: 'd2', registeredBy: first }),
    ).toMatchObject({ change: 'changed' });
  });
});

describe('needsTemplateRecheck', () => {
  it('rechecks a change only when the previous digest was made with another or an unknown template', () => {
    expect(needsTemplateRecheck('changed', by('a', 1, { template: 't1' }), 't1')).toBe(false);
    expect(needsTemplateRecheck('changed', by('a', 1, { template: '0' }), 't1')).toBe(true);
    expect(needsTemplateRecheck('changed', null, 't1')).toBe(true);
    expect(needsTemplateRecheck('new', null, 't1')).toBe(false);
  });
});

describe('contentDigest', () => {
  it('ignores markup-only differences but not text differences', () => {
    const text = 'A paragraph with enough words to be compared by its text alone.';
    expect(contentDigest('md5', 'T', text, Buffer.from('<p>x</p>'))).toBe(
      contentDigest('md5', 'T', text, Buffer.from('<div>x</div>')),
    );
    expect(contentDigest('md5', 'T', text, Buffer.from(''))).not.toBe(
      contentDigest('md5', 'T', `${text}!`, Buffer.from('')),
    );
  });

  it('falls back to the raw body for pages without text', () => {
    expect(contentDigest('md5', null, '', Buffer.from('<frameset/>'))).not.toBe(
      contentDigest('md5', null, '', Buffer.from('<img src=x>')),
    );
  });
});
