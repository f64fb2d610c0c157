import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCrawlJob } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { ExtractionRulesError } from '../errors.js';
import { applyRules, rulesFor } from './apply-rules.js';
import { compileJobRules } from './extraction-rules.js';

const article = {
  name: 'article',
  urls: ['^https?://a\\.test/article/'],
  fields: {
    headline: { selector: 'h1', required: true },
    authors: { selector: '.byline a', list: true },
    image: { selector: 'meta[property="og:image"]', attribute: 'content' },
    price: { selector: '.price', required: true },
  },
};

const html = `<html><head><meta property="og:image" content="https://a.test/i.jpg"><script>var h1 = 1</script></head><body>
  <h1> Big <em>news</em> </h1><p class="byline">By <a>Ann</a> and <a>Bob</a></p><div><p>one</p><p>two</p></div></body></html>`;

describe('extraction rules', () => {
  it('applies the rules whose URL patterns match, flagging missing required fields', () => {
    const rules = compileJobRules(parseCrawlJob({ extraction: { rules: [article] } }));
    expect(rulesFor(rules, 'http://a.test/about')).toEqual([]);
    const result = applyRules(html, rulesFor(rules, 'http://a.test/article/1'));
    expect(Object.fromEntries(result.fields)).toEqual({
      headline: ['Big news'],
      authors: ['Ann', 'Bob'],
      image: ['https://a.test/i.jpg'],
    });
    expect(result.matched).toEqual(['article']);
    expect(result.missing).toEqual(['price']);
  });

  it('reads the job rule file and the inline rules together', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rules-'));
    writeFileSync(join(dir, 'rules.json'), JSON.stringify({ rules: [article] }));
    const rules = compileJobRules(
      parseCrawlJob({
        extraction: {
          rulesFile: join(dir, 'rules.json'),
          rules: [{ name: 'any', urls: ['.'], fields: { text: { selector: 'div', list: true } } }],
        },
      }),
    );
    expect(rules.map((rule) => rule.name)).toEqual(['article', 'any']);
    expect(applyRules(html, rules.slice(1)).fields.get('text')).toEqual(['one two']);
  });

  it('fails at start, with a named error, on a bad selector, pattern, shape or file', () => {
    const compileWith = (rule: unknown) => () => compileJobRules(parseCrawlJob({ extraction: { rules: [rule] } }));
    expect(compileWith({ ...article, fields: { x: { selector: 'h1[' } } })).toThrow(
      /rule "article", field "x": selector h1\[ is not valid CSS/,
    );
    expect(compileWith({ ...article, urls: ['('] })).toThrow(ExtractionRulesError);
    expect(compileWith({ name: 'n', urls: ['.'], fields: { x: { selector: 'p', multiple: true } } })).toThrow(
      /rules\.0\.fields\.x/,
    );
    expect(() => compileJobRules(parseCrawlJob({ extraction: { rulesFile: '/nonexistent/rules.json' } }))).toThrow(
      expect.objectContaining({ code: 'LINKEXTRACT_RULES_INVALID' }),
    );
  });
});
