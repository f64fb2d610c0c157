import { describe, expect, it } from 'vitest';
import { hostMatches } from './host-pattern.js';

describe('host patterns of crawl job overrides', () => {
  it('matches exact hosts and whole domains, ignoring ports and case', () => {
    expect(hostMatches('news.example.org', 'News.Example.org:8080')).toBe(true);
    expect(hostMatches('news.example.org', 'example.org')).toBe(false);
    expect(hostMatches('*.example.org', 'example.org')).toBe(true);
    expect(hostMatches('*.example.org', 'a.b.example.org')).toBe(true);
    expect(hostMatches('*.example.org', 'badexample.org')).toBe(false);
  });
});
