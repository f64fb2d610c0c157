import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { routePage } from './render-router.js';
import { parseRenderRules, RenderRules } from './render-rules.js';
import { SiteLearning } from './site-learning.js';

const SHELL = '<html><head><script src="/app.js"></script></head><body><div id="app"></div></body></html>';
const PLAIN = `<html><head><script src="/analytics.js"></script></head><body><p>${'Plenty of text on a server-rendered page. '.repeat(10)}</p></body></html>`;
const page = (url: string, html: string, contentType = 'text/html') => ({
  url,
  host: new URL(url).host,
  contentType,
  html: () => html,
});

describe('render routing', () => {
  const rules = new RenderRules(
    parseRenderRules(
      [{ pattern: '/never/', render: 'never' }, { pattern: '/always/' }, { pattern: '/learn/', render: 'learn' }],
      'test',
    ),
  );

  it('renders rule matches and shells, never plain pages or other media types', async () => {
    const options = { rules, detectShells: true, learning: null };
    expect(await routePage(options, page('http://a.test/always/x', PLAIN))).toMatchObject({
      render: true,
      reason: 'rule',
      learn: false,
    });
    expect(await routePage(options, page('http://a.test/never/x', SHELL))).toEqual({
      render: false,
      reason: 'rule_never',
    });
    expect(await routePage(options, page('http://a.test/x', SHELL))).toMatchObject({
      render: true,
      reason: 'shell',
      rule: null,
    });
    expect(await routePage(options, page('http://a.test/x', PLAIN))).toEqual({ render: false, reason: 'plain' });
    expect(await routePage(options, page('http://a.test/always/feed.xml', SHELL, 'application/rss+xml'))).toEqual({
      render: false,
      reason: 'not_html',
    });
    expect(await routePage({ ...options, detectShells: false }, page('http://a.test/x', SHELL))).toEqual({
      render: false,
      reason: 'plain',
    });
  });

  it('lets a learned "skip" stop shells and learn rules, but never an always rule', async () => {
    const store = new MemoryFingerprintStore();
    await store.set([{ namespace: 'render-decision', key: 'quiet.test', value: 'skip', ttlMs: 60_000 }]);
    const options = { rules, detectShells: true, learning: new SiteLearning(store, { samples: 3, ttlMs: 60_000 }) };
    expect(await routePage(options, page('http://quiet.test/x', SHELL))).toEqual({
      render: false,
      reason: 'learned_skip',
    });
    expect(await routePage(options, page('http://quiet.test/learn/x', PLAIN))).toEqual({
      render: false,
      reason: 'learned_skip',
    });
    expect(await routePage(options, page('http://quiet.test/always/x', PLAIN))).toMatchObject({
      render: true,
      reason: 'rule',
    });
    expect(await routePage(options, page('http://other.test/learn/x', PLAIN))).toMatchObject({
      render: true,
      reason: 'rule',
      learn: true,
    });
  });
});
