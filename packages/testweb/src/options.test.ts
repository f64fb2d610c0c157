import { freePort } from '@crawler/core/free-port';
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from './errors.js';
import { resolveOptions } from './options.js';
import { startTestWeb } from './test-web.js';

describe('options', () => {
  it('fills the documented defaults per profile', () => {
    expect(resolveOptions()).toMatchObject({ seed: 1, profile: 'full', hosts: 6, pagesPerHost: 60 });
    expect(resolveOptions({ profile: 'bench' })).toMatchObject({
      hosts: 10,
      pagesPerHost: 1000,
      pageBytes: 4096,
      linksPerPage: 20,
    });
  });

  it('rejects values the web cannot be built with', () => {
    for (const bad of [
      { hosts: 5 },
      { pagesPerHost: 10 },
      { seed: 1.5 },
      { profile: 'bench' as const, pageBytes: -1 },
      { basePort: 65_534 },
    ]) {
      expect(() => resolveOptions(bad)).toThrow(InvalidOptionsError);
    }
  });

  it('adds uniform sites after the six full-profile hosts', async () => {
    const web = await startTestWeb({ hosts: 7, pagesPerHost: 40 });
    try {
      expect(web.hosts.map((h) => h.name)).toEqual(['news', 'blog', 'shop', 'legacy', 'mirror', 'slow', 'site-7']);
      const extra = web.hosts[6]!.origin;
      expect(web.groundTruth().pages.filter((p) => p.startsWith(`${extra}/`))).toHaveLength(40);
    } finally {
      await web.close();
    }
  });

  it('listens on basePort + i when a base port is given', async () => {
    const basePort = await freePort();
    const web = await startTestWeb({ profile: 'bench', hosts: 1, pagesPerHost: 5, basePort });
    try {
      expect(web.hosts[0]!.origin).toBe(`http://127.0.0.1:${basePort}`);
      expect(web.seeds).toEqual([`http://127.0.0.1:${basePort}/`]);
    } finally {
      await web.close();
    }
  });
});
