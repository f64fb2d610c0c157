import { describe, expect, it } from 'vitest';
import { scanHtml } from './html-scan.js';
import { detectScriptShell } from './shell-detector.js';

const doc = (head: string, body: string) =>
  `<!DOCTYPE html><html><head><title>A long title that is not page text at all</title>${head}</head><body>${body}</body></html>`;
const prose = 'The council met on Tuesday to discuss the harbor budget and the new bridge. '.repeat(6);

describe('script shell detection', () => {
  it('flags an empty framework root, a noscript plea, or a page that is mostly code', () => {
    expect(detectScriptShell(doc('<script src="/app.js" defer></script>', '<div id="root"></div>'))).toMatchObject({
      shell: true,
      reason: 'app-root',
    });
    expect(detectScriptShell(doc('<script src="/main.js"></script>', '<app-root></app-root>'))).toMatchObject({
      shell: true,
      reason: 'app-root',
    });
    expect(
      detectScriptShell(
        doc('', '<p>Loading</p><noscript>Please enable <b>JavaScript</b>.</noscript><script src="/b.js"></script>'),
      ),
    ).toMatchObject({ shell: true, reason: 'noscript' });
    expect(detectScriptShell(doc(`<script>${'var x = 1;'.repeat(100)}</script>`, '<p>Hello</p>'))).toMatchObject({
      shell: true,
      reason: 'script-heavy',
    });
  });

  it('leaves pages with text, or without code, alone', () => {
    expect(
      detectScriptShell(
        doc('<script src="/analytics.js" async></script>', `<div id="root"></div><main><p>${prose}</p></main>`),
      ),
    ).toMatchObject({ shell: false, reason: 'text' });
    expect(detectScriptShell(doc('', '<div id="app"></div>'))).toMatchObject({ shell: false, reason: 'no-script' });
    // JSON in a script tag is data: a short page with only that is no shell.
    expect(
      detectScriptShell(doc('<script type="application/ld+json">{"@type":"Article"}</script>', '<p>Short note.</p>')),
    ).toMatchObject({ shell: false, reason: 'no-script' });
    expect(
      detectScriptShell(doc('<script src="/menu.js"></script>', '<p>A short page with a menu script.</p>')),
    ).toMatchObject({ shell: false });
  });

  it('counts visible text only: no title, script, style, noscript or comment', () => {
    const scan = scanHtml(
      doc(
        '<style>p { color: red }</style><script>var hidden = "not text";</script>',
        '<!-- a comment --><p>Seen &amp; counted</p><noscript>plea</noscript>',
      ),
    );
    expect(scan.text).toBe('Seen _ counted');
    expect(scan).toMatchObject({ scripts: 1, noscript: ' plea' });
  });

  it('reads a hostile page of unclosed tags in one pass', () => {
    const hostile = '<script x'.repeat(40_000) + '<!--'.repeat(40_000) + '<a href'.repeat(40_000) + '<'.repeat(200_000);
    const scan = scanHtml(hostile);
    expect(scan.scripts).toBe(1);
    expect(detectScriptShell(hostile).shell).toBe(false);
  });
});
