import { ModelError } from '../errors.js';
import type { PageSpec } from '../model/web-model.js';
import { renderAppShell } from './app-template.js';
import { renderBenchPage } from './bench-template.js';
import { renderBlogPage } from './blog-template.js';
import { renderDocsPage } from './docs-template.js';
import { renderLegacyPage } from './legacy-template.js';
import { renderNewsPage } from './news-template.js';
import type { Noise } from './noise.js';
import { renderPlainPage } from './plain-template.js';
import { renderScriptedPage } from './scripted-template.js';
import { renderShopPage } from './shop-template.js';

/** The full HTML text of a page; `main` is the pre-rendered <main> element of the edition. */
export function renderPageHtml(page: PageSpec, main: string, edition: number, noise: Noise | undefined): string {
  switch (page.template) {
    case 'news':
      return renderNewsPage(page, main, requireNoise(noise));
    case 'shop':
      return renderShopPage(page, main, requireNoise(noise));
    case 'blog':
      return renderBlogPage(page, main);
    case 'docs':
      return renderDocsPage(page, main);
    case 'legacy':
      return renderLegacyPage(page, main, edition);
    case 'plain':
      return renderPlainPage(page, main);
    case 'bench':
      return renderBenchPage(page, main);
    case 'app':
      return renderAppShell(page);
    case 'scripted':
      return renderScriptedPage(page, main);
  }
}

function requireNoise(noise: Noise | undefined): Noise {
  if (!noise) throw new ModelError('noisy templates need per-request noise');
  return noise;
}
