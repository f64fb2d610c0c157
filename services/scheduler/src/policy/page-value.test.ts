import { makeLinkRecord } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { levelOf } from './levels.js';
import { anchorScore, pageValue, shapeScore, typeScore } from './page-value.js';

describe('weight function', () => {
  it('values shallow pages above deep ones, other signals equal', () => {
    const at = (depth: number) => pageValue(makeLinkRecord('http://a.test/x', { depth, source: 'a' }));
    expect(at(0)).toBeGreaterThan(at(1));
    expect(at(1)).toBeGreaterThan(at(3));
  });

  it('raises pages many others link to with meaningful anchor text', () => {
    const plain = makeLinkRecord('http://a.test/x', { depth: 2, source: 'a' });
    expect(pageValue({ ...plain, inlinks: 40 })).toBeGreaterThan(pageValue(plain));
    expect(pageValue({ ...plain, anchors: ['Election results', 'Results by county'] })).toBeGreaterThan(
      pageValue({ ...plain, anchors: ['Read more', 'here', '2'] }),
    );
    expect(anchorScore(['Read more', 'click here', '»'])).toBe(0);
  });

  it('marks down query strings, deep paths, listings and non-HTML files', () => {
    expect(shapeScore('http://a.test/about')).toBe(1);
    expect(shapeScore('http://a.test/news?page=3&sort=date')).toBeLessThan(shapeScore('http://a.test/news'));
    expect(shapeScore('http://a.test/a/b/c/d/e')).toBeLessThan(shapeScore('http://a.test/a/b'));
    expect(shapeScore('http://a.test/2024/05/06/')).toBeLessThan(1);
    expect(shapeScore('http://a.test/report.pdf')).toBeLessThan(1);
  });

  it('uses page-type feedback: a fetched page is worth what it yields as a hub', () => {
    expect(typeScore({ fetchCount: 3, linkYield: 10, source: 'a' })).toBe(1);
    expect(typeScore({ fetchCount: 3, linkYield: 0, source: 'seed' })).toBe(0);
    expect(typeScore({ fetchCount: 0, linkYield: 0, source: 'seed' })).toBeGreaterThan(
      typeScore({ fetchCount: 0, linkYield: 0, source: 'a' }),
    );
  });

  it('stays in (0, 1] and maps to four levels, 0 the highest', () => {
    const best = pageValue(
      makeLinkRecord('http://a.test/', {
        depth: 0,
        inlinks: 1000,
        anchors: ['Home page', 'Front page'],
        source: 'seed',
      }),
    );
    const worst = pageValue(
      makeLinkRecord(`http://a.test/${'x/'.repeat(20)}?a=1&b=2&c=3&page=9`, { depth: 50, source: 'a', fetchCount: 1 }),
    );
    expect(best).toBe(1);
    expect(worst).toBeGreaterThan(0);
    expect([levelOf(best), levelOf(0.4), levelOf(0.2), levelOf(worst)]).toEqual([0, 1, 2, 3]);
  });
});
