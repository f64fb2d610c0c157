import { describe, expect, it } from 'vitest';
import { decodeRegistration, encodeRegistration, type Registration } from './registration.js';

describe('digest registrations', () => {
  it('round-trip every field', () => {
    const full: Registration = {
      url: 'http://a.test/x?y=1',
      fetchedAt: 1790000000123,
      template: '9f2c01aa',
      verdict: 'harmful:weapons',
      nearOf: 'http://b.test/',
      distance: 2,
      pageChars: 48_211,
      sketch: Uint32Array.from([3, 70_000, 0xfffffff0]),
    };
    expect(decodeRegistration(encodeRegistration(full))).toEqual(full);
    const bare: Registration = {
      url: 'http://a.test/',
      fetchedAt: 5,
      template: '0',
      verdict: null,
      nearOf: null,
      distance: null,
      pageChars: null,
      sketch: null,
    };
    expect(decodeRegistration(encodeRegistration(bare))).toEqual(bare);
  });

  it('read the older forms: without size and sketch, and "fetchedAt url"', () => {
    const unknown = { verdict: null, nearOf: null, distance: null, pageChars: null, sketch: null };
    expect(decodeRegistration('1790000000123\thttp://a.test/x\t9f2c01aa\tok\t\t')).toEqual({
      ...unknown,
      url: 'http://a.test/x',
      fetchedAt: 1790000000123,
      template: '9f2c01aa',
      verdict: 'ok',
    });
    expect(decodeRegistration('1790000000123 http://a.test/x')).toEqual({
      ...unknown,
      url: 'http://a.test/x',
      fetchedAt: 1790000000123,
      template: '',
    });
  });
});
