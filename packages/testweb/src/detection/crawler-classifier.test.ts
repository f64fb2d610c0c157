import { describe, expect, it } from 'vitest';
import { CrawlerClassifier, DEFAULT_DETECTION, networkOf } from './crawler-classifier.js';

const thresholds = { ...DEFAULT_DETECTION, windowMs: 60_000, maxPages: 30, maxPagesPerMinute: 20 };

describe('CrawlerClassifier', () => {
  it('groups clients by /24 (IPv6 by /48)', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:127.0.0.1')).toBe('127.0.0.0/24');
    expect(networkOf('2001:db8:1:2::5')).toBe('2001:db8:1::/48');
  });

  it('judges a network whose page views come faster than a person reads, when it fetches no attachment', () => {
    const classifier = new CrawlerClassifier(thresholds);
    let verdict = null;
    for (let i = 0; i < 10 && !verdict; i++) verdict = classifier.observe(`198.51.100.${i}`, 'page', i * 500);
    // Ten views, 500 ms apart on average, from one /24 (different hosts in it count together).
    expect(verdict).toMatchObject({
      network: '198.51.100.0/24',
      rule: 'dwell',
      pages: 10,
      meanDwellMs: 500,
      attachments: 0,
    });
    expect(classifier.isBlacklisted('198.51.100.77')).toBe(true);
    expect(classifier.isBlacklisted('198.51.101.1')).toBe(false);
  });

  it('lets a browser-like visitor with attachments, and a slow reader, be', () => {
    const classifier = new CrawlerClassifier(thresholds);
    for (let i = 0; i < 15; i++) {
      expect(classifier.observe('192.0.2.1', 'page', i * 500)).toBeNull();
      expect(classifier.observe('192.0.2.1', 'attachment', i * 500 + 10)).toBeNull();
      expect(classifier.observe('192.0.2.200', 'other', i * 500)).toBeNull();
    }
    for (let i = 0; i < 19; i++) expect(classifier.observe('203.0.113.1', 'page', i * 1500)).toBeNull();
    expect(classifier.verdicts()).toEqual([]);
  });

  it('judges by speed and by volume, over a sliding window', () => {
    const classifier = new CrawlerClassifier({ ...thresholds, minMeanDwellMs: 1 });
    let verdict = null;
    for (let i = 0; i < 21 && !verdict; i++) verdict = classifier.observe('10.0.0.1', 'page', i * 2000);
    expect(verdict).toMatchObject({ rule: 'speed', pagesLastMinute: 21 });
    // 30 views in any minute is the ceiling: at 2.1 s apart the window never holds more, and nothing is judged.
    const steady = new CrawlerClassifier({ ...thresholds, maxPagesPerMinute: 100, minMeanDwellMs: 1 });
    for (let i = 0; i < 200; i++) expect(steady.observe('10.0.1.1', 'page', i * 2100)).toBeNull();
    expect(steady.observe('10.0.2.1', 'page', 0)).toBeNull();
    let crowded = null;
    for (let i = 1; i <= 31 && !crowded; i++) crowded = steady.observe('10.0.2.1', 'page', i * 1000);
    expect(crowded).toMatchObject({ rule: 'volume', pages: 31 });
  });
});
