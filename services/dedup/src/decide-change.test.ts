import { describe, expect, it } from 'vitest';
import { contentDigest } from './content-digest.js';
import { decideChange, decodeRegistration, encodeRegistration } from './decide-change.js';

const first = { url: 'a', fetchedAt: 100 };

describe('decideChange', () => {
  it('tells new, changed, unchanged and duplicate apart', () => {
    expect(decideChange({ url: 'a', fetchedAt: 100, digest: 'd1', previousDigest: null, registeredBy: null })).toEqual({ change: 'new', duplicateOf: null });
    expect(decideChange({ url: 'a', fetchedAt: 200, digest: 'd2', previousDigest: 'd1', registeredBy: null })).toEqual({ change: 'changed', duplicateOf: null });
    expect(decideChange({ url: 'a', fetchedAt: 200, digest: 'd1', previousDigest: 'd1', registeredBy: first })).toEqual({ change: 'unchanged', duplicateOf: null });
    expect(decideChange({ url: 'b', fetchedAt: 200, digest: 'd1', previousDigest: null, registeredBy: first })).toEqual({ change: 'duplicate', duplicateOf: 'a' });
  });

  it('repeats the decision for a redelivered message of the same fetch', () => {
    expect(decideChange({ url: 'a', fetchedAt: 100, digest: 'd1', previousDigest: null, registeredBy: first })).toEqual({ change: 'new', duplicateOf: null });
  });

  it('calls a second fetch of the same content unchanged before the link base knows the first', () => {
    expect(decideChange({ url: 'a', fetchedAt: 150, digest: 'd1', previousDigest: null, registeredBy: first })).toEqual({ change: 'unchanged', duplicateOf: null });
  });

  it('calls a page that went back to an older version changed', () => {
    expect(decideChange({ url: 'a', fetchedAt: 300, digest: 'd1', previousDigest: 'd2', registeredBy: first })).toEqual({ change: 'changed', duplicateOf: null });
  });
});

describe('digest registrations', () => {
  it('round-trip fetch time and URL', () => {
    expect(decodeRegistration(encodeRegistration({ url: 'http://a.test/x?y=1', fetchedAt: 1790000000123 }))).toEqual({ url: 'http://a.test/x?y=1', fetchedAt: 1790000000123 });
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
