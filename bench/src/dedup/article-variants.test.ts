import { describe, expect, it } from 'vitest';
import { pageTitle } from './article-variants.js';

describe('pageTitle', () => {
  it('reads the first title with its entities decoded, so a reprint escapes it once', () => {
    expect(
      pageTitle(
        '<html><head><title> Q&amp;A: rock &#8217;n&#8217; roll &lt;live&gt; </title></head><body><svg><title>icon</title></svg></body></html>',
      ),
    ).toBe('Q&A: rock ’n’ roll <live>');
    expect(pageTitle('<p>no title</p>')).toBe('');
  });
});
