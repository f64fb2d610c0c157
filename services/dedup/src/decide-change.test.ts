import { describe, expect, it } from 'vitest';
import { contentDigest } from './content-digest.js';
import { decideChange } from './decide-change.js';

describe('decideChange', () => {
  it('tells new, changed, unchanged and duplicate apart', () => {
    expect(decideChange({ url: 'a', digest: 'd1', previousDigest: null, firstUrlWithDigest: null })).toEqual({ change: 'new', duplicateOf: null });
    expect(decideChange({ url: 'a', digest: 'd2', previousDigest: 'd1', firstUrlWithDigest: null })).toEqual({ change: 'changed', duplicateOf: null });
    expect(decideChange({ url: 'a', digest: 'd1', previousDigest: 'd1', firstUrlWithDigest: 'a' })).toEqual({ change: 'unchanged', duplicateOf: null });
    expect(decideChange({ url: 'b', digest: 'd1', previousDigest: null, firstUrlWithDigest: 'a' })).toEqual({ change: 'duplicate', duplicateOf: 'a' });
  });

  it('treats a redelivered page (its own URL holds the digest) as the same decision again', () => {
    expect(decideChange({ url: 'a', digest: 'd1', previousDigest: null, firstUrlWithDigest: 'a' })).toEqual({ change: 'new', duplicateOf: null });
  });
});

describe('contentDigest', () => {
  it('ignores markup-only differences but not text differences', () => {
    const text = 'A paragraph with enough words to be compared by its text alone.';
    expect(contentDigest('md5', 'T', text, Buffer.from('<p>x</p>'))).toBe(contentDigest('md5', 'T', text, Buffer.from('<div>x</div>')));
    expect(contentDigest('md5', 'T', text, Buffer.from(''))).not.toBe(contentDigest('md5', 'T', `${text}!`, Buffer.from('')));
  });

  it('falls back to the raw body for pages without text', () => {
    expect(contentDigest('md5', null, '', Buffer.from('<frameset/>'))).not.toBe(contentDigest('md5', null, '', Buffer.from('<img src=x>')));
  });
});
