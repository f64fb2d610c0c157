import { createAtomResource } from '../files/feed-files.js';
import { createSitemapResource } from '../files/sitemap-file.js';
import { staticFile } from '../files/static-file.js';
import { pickSameHostForm } from '../model/href-forms.js';
import {
  addPage,
  addResource,
  createHost,
  fixedContent,
  makeLink,
  pickChangeRate,
  proseContent,
  standardPage,
} from '../model/page-kit.js';
import type { Content, Link, PageSpec } from '../model/web-model.js';
import { createRandom } from '../seeded-random.js';
import { writeTitle } from '../text/prose.js';
import { calendarPath, createCalendarRoute } from './calendar-trap.js';
import { addDocsPages, SHARED_DOCS_COUNT } from './docs-pages.js';
import type { FullBuildContext, HostBuild } from './full-context.js';
import { NEWS_REPRINTED_ARTICLES } from './news-host.js';
import { newsArticleTitle, oneSentenceEdited, reprintContent } from './shared-content.js';

const TAGS = ['gardening', 'trains', 'cooking', 'repair'] as const;
const PER_LISTING = 10;
/** The post that also exists as a corrected copy (a small-edit near duplicate). */
const CORRECTED_POST = 2;

/** Blog: clean template with validators, tag pages with <base href>, redirects, a calendar trap. */
export function buildBlogHost(ctx: FullBuildContext): HostBuild {
  const { seed } = ctx;
  const origin = ctx.origins.blog;
  const host = createHost('blog', origin, { noise: false, validators: true });
  const at = (path: string) => ({ origin, path });
  const postCount = Math.max(10, ctx.pagesPerHost - 22);
  const posts = Array.from({ length: postCount }, (_, i) => i + 1);
  const title = (n: number) => writeTitle(createRandom(seed, 'blog-title', n));
  const postPath = (n: number) => `/posts/${title(n).toLowerCase().replace(/ /g, '-')}-${n}`;
  const postContent = (n: number): Content =>
    proseContent(seed, `blog:post:${n}`, pickChangeRate(seed, `blog:post:${n}`), 4);
  const tagOf = (n: number) => TAGS[n % TAGS.length] as string;
  const listingPath = (k: number) => (k === 1 ? '/' : `/page/${k}`);
  const listingCount = Math.ceil(postCount / PER_LISTING);
  const reprintPath = (n: number) => `/posts/reprint-${n}`;
  const correctedPath = `${postPath(CORRECTED_POST)}-corrected`;

  const chrome = (path: string): Link[] => [
    makeLink(at(path), at('/'), 'Home', { placement: 'nav' }),
    makeLink(at(path), at('/about'), 'About', { placement: 'nav' }),
    makeLink(at(path), at('/docs/'), 'Lantern manual', { placement: 'nav' }),
    ...TAGS.map((t) => makeLink(at(path), at(`/tags/${t}`), `#${t}`, { placement: 'nav' })),
    makeLink(at(path), at('/feed'), 'Subscribe (Atom)', { placement: 'footer' }),
  ];
  const page = (
    path: string,
    pageTitle: string,
    content: Content,
    main: Link[],
    extra: Partial<PageSpec> = {},
  ): PageSpec =>
    standardPage({ title: pageTitle, template: 'blog', content, links: [...chrome(path), ...main], ...extra });

  for (let k = 1; k <= listingCount; k++) {
    const path = listingPath(k);
    const r = createRandom(seed, 'blog-listing-links', k);
    const main = posts
      .slice((k - 1) * PER_LISTING, k * PER_LISTING)
      .map((n) => makeLink(at(path), at(postPath(n)), title(n), { form: pickSameHostForm(r) }));
    if (k > 1) main.push(makeLink(at(path), at(listingPath(k - 1)), 'Newer posts', { form: 'relative' }));
    if (k < listingCount) main.push(makeLink(at(path), at(listingPath(k + 1)), 'Older posts', { form: 'dot' }));
    if (k === 1) {
      main.push(
        ...NEWS_REPRINTED_ARTICLES.map((n) =>
          makeLink(at(path), at(reprintPath(n)), `Reprint: ${newsArticleTitle(seed, n)}`),
        ),
        makeLink(at(path), at(calendarPath(2026, 11)), 'Archive calendar'),
        makeLink(at(path), at('/go/about'), 'Who writes this?'),
        makeLink(at(path), at('/r/1'), 'An old favourite'),
        makeLink(at(path), at('/loop/a'), 'Our guest book'),
        makeLink(at(path), at('/drafts/upcoming'), 'Coming soon'),
        makeLink(at(path), { origin: ctx.origins.news, path: '/article/2' }, 'As reported in the Ledger', {
          form: 'absolute',
        }),
      );
    }
    const content =
      k === 1 ? proseContent(seed, 'blog:home', 0.3, 1) : fixedContent(`blog:page:${k}`, [`Older posts, page ${k}.`]);
    addPage(host, path, page(path, k === 1 ? 'Field Notes' : `Field Notes, page ${k}`, content, main));
  }

  for (const tag of TAGS) {
    const path = `/tags/${tag}`;
    // Relative links here are written against the <base>, not the page URL: a crawler that
    // ignores <base href> resolves them to /tags/... and gets 404s.
    const base = at('/posts/');
    const main = posts
      .filter((n) => tagOf(n) === tag)
      .map((n) => makeLink(base, at(postPath(n)), title(n), { form: 'relative' }));
    main.push(makeLink(base, at(`${path}?sort=popular`), 'Most popular first'));
    addPage(
      host,
      path,
      page(path, `Posts tagged ${tag}`, fixedContent(`blog:tag:${tag}`, [`Everything about ${tag}.`]), main, {
        baseHref: `${origin}/posts/`,
      }),
    );
  }

  for (const n of posts) {
    const path = postPath(n);
    const main = [makeLink(at(path), at(`/tags/${tagOf(n)}`), `More on ${tagOf(n)}`, { form: 'parent' })];
    if (n > 1) main.push(makeLink(at(path), at(postPath(n - 1)), title(n - 1), { form: 'dot' }));
    if (n === CORRECTED_POST)
      main.push(makeLink(at(path), at(correctedPath), 'Read the corrected version', { form: 'relative' }));
    if (n % 7 === 3)
      main.push(
        makeLink(at(path), { origin: ctx.origins.legacy, path: '/' }, 'The rail society archive', {
          form: 'upper-scheme',
        }),
      );
    addPage(host, path, page(path, title(n), postContent(n), main));
  }
  addPage(
    host,
    correctedPath,
    page(correctedPath, title(CORRECTED_POST), oneSentenceEdited(seed, postContent(CORRECTED_POST)), [
      makeLink(at(correctedPath), at(postPath(CORRECTED_POST)), 'Original version', { form: 'relative' }),
    ]),
  );
  for (const n of NEWS_REPRINTED_ARTICLES) {
    const path = reprintPath(n);
    addPage(
      host,
      path,
      page(path, newsArticleTitle(seed, n), reprintContent(seed, n), [
        makeLink(at(path), { origin: ctx.origins.news, path: `/article/${n}` }, 'Original at The Daily Ledger', {
          form: 'absolute',
        }),
      ]),
    );
  }
  addPage(
    host,
    '/posts/hidden-gem',
    page('/posts/hidden-gem', 'A hidden gem', proseContent(seed, 'blog:hidden-gem', 0.1, 3), []),
  );
  addPage(
    host,
    '/about',
    page(
      '/about',
      'About',
      fixedContent('blog:about', ['Field Notes is written by one person with too many hobbies.']),
      [],
    ),
  );
  addDocsPages(host, seed, SHARED_DOCS_COUNT);

  addResource(host, '/go/about', { kind: 'redirect', status: 307, location: '/about', target: `${origin}/about` });
  addResource(host, '/feed', {
    kind: 'redirect',
    status: 308,
    location: `${origin}/feed.atom`,
    target: `${origin}/feed.atom`,
  });
  addResource(host, '/r/1', { kind: 'redirect', status: 301, location: '/r/2', target: `${origin}/r/2` });
  addResource(host, '/r/2', { kind: 'redirect', status: 302, location: `${origin}/r/3`, target: `${origin}/r/3` });
  addResource(host, '/r/3', {
    kind: 'redirect',
    status: 307,
    location: '../posts/hidden-gem',
    target: `${origin}/posts/hidden-gem`,
  });
  addResource(host, '/loop/a', { kind: 'redirect', status: 302, location: '/loop/b', target: `${origin}/loop/b` });
  addResource(host, '/loop/b', { kind: 'redirect', status: 301, location: '/loop/a', target: `${origin}/loop/a` });
  addResource(
    host,
    '/feed.atom',
    createAtomResource(
      seed,
      'Field Notes',
      `${origin}/feed.atom`,
      posts.slice(0, 10).map((n) => ({ title: title(n), url: `${origin}${postPath(n)}`, content: postContent(n) })),
    ),
  );
  addResource(
    host,
    '/robots.txt',
    staticFile(
      'text/plain; charset=utf-8',
      ['User-agent: *', 'Disallow: /drafts/', 'Disallow: /*?sort=', '', `Sitemap: ${origin}/sitemap.xml`, ''].join(
        '\n',
      ),
    ),
  );
  addResource(host, '/sitemap.xml', createSitemapResource(host, seed));
  host.route = createCalendarRoute(origin);
  host.traps.push({
    prefix: `${origin}/calendar/`,
    description: 'Archive calendar: every month links to the previous and the next month, without end.',
  });

  const url = (path: string) => `${origin}${path}`;
  return {
    host,
    declarations: {
      nearDuplicates: [
        ...NEWS_REPRINTED_ARTICLES.map((n) => ({
          a: `${ctx.origins.news}/article/${n}`,
          b: url(reprintPath(n)),
          kind: 'reprint-other-template' as const,
        })),
        { a: url(postPath(CORRECTED_POST)), b: url(correctedPath), kind: 'small-edit' as const },
      ],
      notNearDuplicates: [{ a: url(postPath(1)), b: url(postPath(3)), kind: 'different-articles' as const }],
    },
  };
}
