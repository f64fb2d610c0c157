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
    };
    expect(decodeRegistration(encodeRegistration(full))).toEqual(full);
    const bare: Registration = {
      url: 'http://a.test/',
      fetchedAt: 5,
      template: '0',
      verdict: null,
      nearOf: null,
      distance: null,
    };
    expect(decodeRegistration(encodeRegistration(bare))).toEqual(bare);
  });

  it('read the older "fetchedAt url" form', () => {
    expect(decodeRegistration('1790000000123 http://a.test/x')).toEqual({
      url: 'http://a.test/x',
      fetchedAt: 1790000000123,
      template: '',
      verdict: null,
      nearOf: null,
      distance: null,
    });
  });
});
