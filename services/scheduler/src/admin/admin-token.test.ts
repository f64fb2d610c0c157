import { describe, expect, it } from 'vitest';
import { createTokenCheck } from './admin-token.js';

describe('admin token check', () => {
  const check = createTokenCheck('s3cret-token-of-some-length');

  it('accepts exactly the bearer token', () => {
    expect(check('Bearer s3cret-token-of-some-length')).toBe(true);
    expect(check('bearer   s3cret-token-of-some-length ')).toBe(true);
  });

  it('refuses a missing, wrong, partial or differently framed token', () => {
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer s3cret',
      'Bearer s3cret-token-of-some-length-and-more',
      'Basic s3cret-token-of-some-length',
      's3cret-token-of-some-length',
      'Bearer s3cret-token-of-some-length extra',
    ]) {
      expect(check(header)).toBe(false);
    }
  });
});
