import { createRssResource } from '../files/feed-files.js';
import { createSitemapIndexResource, createSitemapResource } from '../files/sitemap-file.js';
import { staticFile } from '../files/static-file.js';
import { pickSameHostForm } from '../model/href-forms.js';
import {
  addPage,
  addResource,
  createHost,
  fixedContent,
  makeLink,
  proseContent,
  standardPage,
} from '../model/page-kit.js';
import type { Content, Link, PageSpec } from '../model/web-model.js';
import { createRandom } from '../seeded-random.js';
import { writeParagraph, writeTitle } from '../text/prose.js';
import type { FullBuildContext, HostBuild } from './full-context.js';
import { newsArticleContent, newsArticleTitle } from './shared-content.js';

const SECTIONS = ['world', 'tech', 'sports', 'culture'] as const;
const BRIEF_COUNT = 8;
/** Articles also served under tracking and print URLs: content duplicates. */
const NEWS_DUPLICATED_ARTICLES = [7, 12] as const;
/** Articles the blog reprints in its own template. */
export const NEWS_REPRINTED_ARTICLES = [5, 9] as const;

/** News site: noisy template, sections, many articles, short briefs, robots with overrides. */
export function buildNewsHost(ctx: FullBuildContext): HostBuild {
  const { seed } = ctx;
  const origin = ctx.origins.news;
  const host = createHost('news', origin, { noise: true, validators: false });
  const at = (path: string) => ({ origin, path });
  const articleCount = Math.max(12, ctx.pagesPerHost - 20);
  const articles = Array.from({ length: articleCount }, (_, i) => i + 1);
  const sectionOf = (n: number) => SECTIONS[n % SECTIONS.length] as string;

  const chrome = (path: string): Link[] => [
    makeLink(at(path), at('/'), 'Front page', { placement: 'nav' }),
    ...SECTIONS.map((s) => makeLink(at(path), at(`/section/${s}`), capitalize(s), { placement: 'nav' })),
    makeLink(at(path), at('/about'), 'About us', { placement: 'footer' }),
    makeLink(at(path), at('/briefs'), 'In brief', { placement: 'footer' }),
    makeLink(at(path), at('/feed.xml'), 'RSS', { placement: 'footer' }),
  ];
  const page = (path: string, title: string, content: Content, main: Link[], extra: Partial<PageSpec> = {}): PageSpec =>
    standardPage({ title, template: 'news', content, links: [...chrome(path), ...main], ...extra });

  const random = createRandom(seed, 'news-home-links');
  addPage(
    host,
    '/',
    page(
      '/',
      'Front page',
      proseContent(seed, 'news:home', 1, 2),
      [
        ...articles
          .slice(0, 10)
          .map((n) =>
            makeLink(at('/'), at(`/article/${n}`), newsArticleTitle(seed, n), { form: pickSameHostForm(random) }),
          ),
        ...NEWS_DUPLICATED_ARTICLES.map((n) => makeLink(at('/'), at(`/article/${n}?utm_source=rss`), 'From our feed')),
        makeLink(at('/'), at('/latest'), 'Latest story'),
        makeLink(at('/'), at('/old/article/3'), 'From the archive'),
        makeLink(at('/'), at('/live'), 'Live coverage'),
        makeLink(at('/'), at('/live-blog'), 'Election live blog'),
        makeLink(at('/'), at('/about'), 'Meet the team', { form: 'fragment' }),
        makeLink(at('/'), at('/private/'), 'Staff area'),
        makeLink(at('/'), at('/private/press-kit'), 'Press kit'),
        makeLink(at('/'), at('/search?q=weather'), 'Search: weather'),
        makeLink(at('/'), { origin: ctx.origins.blog, path: '/' }, 'Our friends at Field Notes', { form: 'absolute' }),
        makeLink(at('/'), { origin: ctx.origins.shop, path: '/' }, 'Shop the Ledger store', { form: 'upper-scheme' }),
      ],
      {
        decoyMarkup:
          '<!-- old nav: <a href="/old/unlinked-story">Unlinked story</a> -->\n' +
          '<p><a href="mailto:tips@ledger.example">Send us a tip</a> <a href="javascript:window.print()">Print</a></p>',
      },
    ),
  );

  for (const section of SECTIONS) {
    const path = `/section/${section}`;
    const r = createRandom(seed, 'news-section-links', section);
    const members = articles.filter((n) => sectionOf(n) === section);
    addPage(
      host,
      path,
      page(path, capitalize(section), proseContent(seed, `news:section:${section}`, 0.3, 1), [
        ...members.map((n) =>
          makeLink(at(path), at(`/article/${n}`), newsArticleTitle(seed, n), { form: pickSameHostForm(r) }),
        ),
        makeLink(at(path), at(`${path}?sort=date`), 'Sort by date'),
      ]),
    );
  }

  for (const n of articles) {
    const path = `/article/${n}`;
    const r = createRandom(seed, 'news-article-links', n);
    const next = (k: number) => ((n - 1 + k) % articleCount) + 1;
    const main = [
      makeLink(at(path), at(`/section/${sectionOf(n)}`), `More ${sectionOf(n)}`, { form: 'parent' }),
      makeLink(at(path), at(`/article/${next(1)}`), newsArticleTitle(seed, next(1)), { form: pickSameHostForm(r) }),
      makeLink(at(path), at(`/article/${next(2)}`), newsArticleTitle(seed, next(2)), { form: pickSameHostForm(r) }),
    ];
    const duplicated = (NEWS_DUPLICATED_ARTICLES as readonly number[]).includes(n);
    if (duplicated) main.push(makeLink(at(path), at(`${path}?print=1`), 'Print this article', { form: 'relative' }));
    if (n === 3) main.push(makeLink(at(path), at('/old-archive/2019.html'), 'Our 2019 coverage'));
    if (n % 10 === 4)
      main.push(
        makeLink(at(path), { origin: ctx.origins.shop, path: `/product/${n}` }, 'Buy the gadget', {
          form: 'scheme-relative',
        }),
      );
    if (n % 10 === 8)
      main.push(
        makeLink(at(path), { origin: ctx.origins.blog, path: '/' }, 'Discuss on Field Notes', { form: 'absolute' }),
      );
    const spec = page(path, newsArticleTitle(seed, n), newsArticleContent(seed, n), main);
    addPage(host, path, spec);
    if (duplicated) {
      // Same page behind tracking and print URLs; only the per-request noise differs.
      const variant = { ...spec, canonical: `${origin}${path}` };
      addPage(host, `${path}?print=1`, variant);
      addPage(host, `${path}?utm_source=rss`, variant);
    }
  }

  addPage(
    host,
    '/briefs',
    page(
      '/briefs',
      'In brief',
      fixedContent('news:briefs', ['Short items from around the region.']),
      Array.from({ length: BRIEF_COUNT }, (_, i) =>
        makeLink(at('/briefs'), at(`/brief/${i + 1}`), `Brief ${i + 1}`, { form: 'relative' }),
      ),
    ),
  );
  for (let i = 1; i <= BRIEF_COUNT; i++) {
    const path = `/brief/${i}`;
    const content: Content = {
      key: `news:brief:${i}`,
      changeRate: 0.1,
      paragraphs: (edition) => [writeParagraph(createRandom(seed, 'brief', i, edition), 2)],
    };
    addPage(
      host,
      path,
      page(path, writeTitle(createRandom(seed, 'brief-title', i)), content, [
        makeLink(at(path), at('/briefs'), 'All briefs', { form: 'parent' }),
      ]),
    );
  }

  addPage(
    host,
    '/about',
    page('/about', 'About us', fixedContent('news:about', ['The Daily Ledger has covered the region since 1921.']), []),
  );
  addPage(host, '/private/', page('/private/', 'Staff area', fixedContent('news:private', ['Staff only.']), []));
  addPage(
    host,
    '/private/press-kit',
    page('/private/press-kit', 'Press kit', fixedContent('news:press-kit', ['Logos and contacts for the press.']), []),
  );
  addResource(host, '/live', {
    kind: 'flaky',
    failures: 2,
    status: 503,
    page: page('/live', 'Live coverage', proseContent(seed, 'news:live', 1, 2), []),
  });
  addResource(host, '/live-blog', { kind: 'error', status: 503 });
  addResource(host, '/latest', {
    kind: 'redirect',
    status: 302,
    location: `${origin}/article/1`,
    target: `${origin}/article/1`,
  });
  addResource(host, '/old/article/3', {
    kind: 'redirect',
    status: 301,
    location: '/article/3',
    target: `${origin}/article/3`,
  });
  addResource(host, '/old-archive/2019.html', { kind: 'error', status: 404 });
  addResource(
    host,
    '/feed.xml',
    createRssResource(
      seed,
      'The Daily Ledger',
      `${origin}/`,
      articles.slice(0, 10).map((n) => ({
        title: newsArticleTitle(seed, n),
        url: `${origin}/article/${n}`,
        content: newsArticleContent(seed, n),
      })),
    ),
  );
  addResource(
    host,
    '/robots.txt',
    staticFile(
      'text/plain; charset=utf-8',
      [
        '# The Daily Ledger',
        'User-agent: *',
        'Disallow: /private/',
        'Allow: /private/press-kit',
        'Disallow: /*?sort=',
        'Disallow: /search',
        '',
        'User-agent: archive-bot',
        'Disallow: /',
        '',
        `Sitemap: ${origin}/sitemap-index.xml`,
        '',
      ].join('\n'),
    ),
  );
  addResource(
    host,
    '/sitemap-index.xml',
    createSitemapIndexResource([`${origin}/sitemap-articles.xml`, `${origin}/sitemap-pages.xml`]),
  );
  addResource(
    host,
    '/sitemap-articles.xml',
    createSitemapResource(host, seed, (p) => p.startsWith('/article/')),
  );
  addResource(
    host,
    '/sitemap-pages.xml',
    createSitemapResource(host, seed, (p) => !p.startsWith('/article/')),
  );
  host.relatedPool = articles.map((n) => `/article/${n}`);

  const url = (path: string) => `${origin}${path}`;
  return {
    host,
    declarations: {
      contentDuplicates: NEWS_DUPLICATED_ARTICLES.map((n) => [
        url(`/article/${n}`),
        url(`/article/${n}?print=1`),
        url(`/article/${n}?utm_source=rss`),
      ]),
      nearDuplicates: NEWS_DUPLICATED_ARTICLES.map((n) => ({
        a: url(`/article/${n}`),
        b: url(`/article/${n}?print=1`),
        kind: 'noise-only' as const,
      })),
      notNearDuplicates: [
        ...Array.from({ length: BRIEF_COUNT - 1 }, (_, i) => ({
          a: url(`/brief/${i + 1}`),
          b: url(`/brief/${i + 2}`),
          kind: 'short-items-same-template' as const,
        })),
        { a: url('/article/1'), b: url('/article/2'), kind: 'different-articles' as const },
        { a: url('/article/3'), b: url('/article/4'), kind: 'different-articles' as const },
      ],
    },
  };
}

function capitalize(word: string): string {
  return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
}
