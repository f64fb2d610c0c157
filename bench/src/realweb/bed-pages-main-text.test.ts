import { extractHtml, extractLimitsOf, loadLinkextractConfig } from '@crawler/linkextract';
import { describe, expect, it } from 'vitest';
import { loadFixtureBedPages } from '../dedup/bed-page-fixtures.js';

// The pages the main-text issue names, from the bed's pages kept in fixtures/realweb-bed-pages
// (the whole bed is scored by test/realweb/main-text.int.test.ts).
const pages = new Map(loadFixtureBedPages().map((page) => [page.url, page.html]));
const limits = extractLimitsOf(loadLinkextractConfig({ env: {} }));
const mainText = (url: string) => extractHtml(pages.get(url)!, limits).text;

describe('main text of the real-web bed’s named pages', () => {
  it('keeps a reference page’s synopsis, description, every clause and its compatibility notes', () => {
    const text = mainText('http://127.0.0.1:18202/sql-select.html');
    for (const part of [
      'Synopsis',
      '[ WITH [ RECURSIVE ] with_query [, ...] ]',
      'Description',
      'The Locking Clause',
      'Examples',
      'Compatibility',
      'Omitted FROM Clauses',
    ])
      expect(text).toContain(part);
  });

  it('reads the all-letters index whole, so the one-letter index is a different text', () => {
    const all = mainText('http://127.0.0.1:18201/genindex-all.html');
    const p = mainText('http://127.0.0.1:18201/genindex-P.html');
    for (const entry of ['abs() (decimal.Context method)', 'pow() (in module math)', 'Zen of Python'])
      expect(all).toContain(entry);
    expect(p).toContain('pow() (in module math)');
    expect(p).not.toContain('abs() (decimal.Context method)');
    expect(all.length).toBeGreaterThan(p.length * 4);
  });

  it('keeps a chapter’s prose and every function table', () => {
    const text = mainText('http://127.0.0.1:18202/functions-json.html');
    for (const part of ['Table 9.45', 'Table 9.47', 'jsonb_path_query', 'SQL/JSON Path Language'])
      expect(text).toContain(part);
  });
});
