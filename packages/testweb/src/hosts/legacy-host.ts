import { createSitemapResource } from '../files/sitemap-file.js';
import { staticFile } from '../files/static-file.js';
import type { Location } from '../model/href-forms.js';
import { addPage, addResource, createHost, fixedContent, makeLink, standardPage } from '../model/page-kit.js';
import type { CharsetDeclaration, CharsetName, Link, PageSpec } from '../model/web-model.js';
import { nativeTextFor } from '../text/native-texts.js';
import type { FullBuildContext, HostBuild } from './full-context.js';

interface CharsetPage {
  path: string;
  charset: CharsetName;
  declared: CharsetDeclaration;
  lang?: 'fr' | 'de';
}

const CHARSET_PAGES: CharsetPage[] = [
  { path: '/zh/gbk-header.html', charset: 'gbk', declared: 'header' },
  { path: '/zh/gbk-none.html', charset: 'gbk', declared: 'none' },
  { path: '/zh/gb18030-meta.html', charset: 'gb18030', declared: 'meta' },
  { path: '/zh/gb18030-header.html', charset: 'gb18030', declared: 'header' },
  { path: '/tw/big5-meta.html', charset: 'big5', declared: 'meta' },
  { path: '/tw/big5-header.html', charset: 'big5', declared: 'header' },
  { path: '/ja/sjis-header.html', charset: 'shift_jis', declared: 'header' },
  { path: '/ja/sjis-meta.html', charset: 'shift_jis', declared: 'meta' },
  { path: '/ja/sjis-none.html', charset: 'shift_jis', declared: 'none' },
  { path: '/fr/cp1252-none.html', charset: 'windows-1252', declared: 'none', lang: 'fr' },
  { path: '/de/cp1252-meta.html', charset: 'windows-1252', declared: 'meta', lang: 'de' },
  { path: '/fr/cp1252-header.html', charset: 'windows-1252', declared: 'header', lang: 'fr' },
];

/** Legacy site: no robots.txt, frames, an image map, tag soup, meta refresh and legacy encodings. */
export function buildLegacyHost(ctx: FullBuildContext): HostBuild {
  const origin = ctx.origins.legacy;
  const host = createHost('legacy', origin, { noise: false, validators: false });
  const at = (path: string): Location => ({ origin, path });
  const page = (title: string, text: string, links: Link[], extra: Partial<PageSpec> = {}): PageSpec =>
    standardPage({ title, template: 'legacy', content: fixedContent(`legacy:${title}`, [text]), links, ...extra });
  const rel = (from: string, to: string, text: string, kind: Link['kind'] = 'a') =>
    makeLink(at(from), at(to), text, { form: 'relative', kind });

  addPage(
    host,
    '/',
    page(
      'Regional Rail Society',
      '',
      [rel('/', '/nav.html', 'Navigation', 'frame'), rel('/', '/welcome.html', 'Welcome', 'frame')],
      { layout: 'frameset' },
    ),
  );
  addPage(
    host,
    '/nav.html',
    page('Navigation', 'Pick a page.', [
      rel('/nav.html', '/welcome.html', 'Welcome'),
      rel('/nav.html', '/charsets.html', 'International pages'),
      rel('/nav.html', '/map.html', 'Site map'),
      rel('/nav.html', '/broken.html', 'Links (old page)'),
      rel('/nav.html', '/refresh.html', 'Old home page'),
      rel('/nav.html', '/moved.html', 'Manual'),
      rel('/nav.html', '/missing.html', 'Photo gallery'),
      rel('/nav.html', '/readme.txt', 'README'),
      makeLink(at('/nav.html'), at('/history.html'), 'History', { form: 'upper-scheme' }),
      makeLink(at('/nav.html'), at('/timetable.html'), 'Timetable', { form: 'dot-segments' }),
      { ...rel('/nav.html', '/members.html', 'Members'), href: '  members.html\n' },
    ]),
  );
  addPage(
    host,
    '/welcome.html',
    page('Welcome', 'Welcome to the home page of the Regional Rail Society, est. 1978.', [
      rel('/welcome.html', '/widget.html', 'Visitor counter', 'iframe'),
      rel('/welcome.html', '/charsets.html', 'Our pages in other languages'),
      rel('/welcome.html', '/links.html', 'Friends of the society'),
    ]),
  );
  addPage(
    host,
    '/widget.html',
    page('Counter', 'You are visitor number 004711.', [rel('/widget.html', '/timetable.html', 'Timetable')]),
  );
  addPage(
    host,
    '/charsets.html',
    page(
      'International pages',
      'Our newsletter in several languages.',
      CHARSET_PAGES.map((c) => rel('/charsets.html', c.path, `${c.charset} (${c.declared})`)),
    ),
  );
  for (const [i, c] of CHARSET_PAGES.entries()) {
    const text = nativeTextFor(c.charset, c.lang);
    const sentences = text.sentences.map((_, k) => text.sentences[(i + k) % text.sentences.length] as string);
    const separator = c.charset === 'windows-1252' ? ' ' : '';
    addPage(host, c.path, {
      title: text.title,
      template: 'legacy',
      layout: 'standard',
      lang: text.lang,
      content: fixedContent(`legacy:charset:${c.path}`, [
        sentences.slice(0, 2).join(separator),
        sentences.slice(2).join(separator),
      ]),
      links: [makeLink(at(c.path), at('/charsets.html'), 'Back', { form: 'parent' })],
      charset: { name: c.charset, declared: c.declared, sampleText: sentences[0] as string },
    });
  }
  addPage(
    host,
    '/map.html',
    page('Site map', 'Click on the map.', [
      rel('/map.html', '/history.html', 'History', 'area'),
      rel('/map.html', '/timetable.html', 'Timetable', 'area'),
      rel('/map.html', '/members.html', 'Members', 'area'),
    ]),
  );
  addPage(
    host,
    '/history.html',
    page('History', 'The society was founded by twelve railway workers.', [rel('/history.html', '/nav.html', 'Back')]),
  );
  addPage(
    host,
    '/timetable.html',
    page('Timetable', 'Excursions leave on the first Sunday of each month.', [
      rel('/timetable.html', '/nav.html', 'Back'),
    ]),
  );
  addPage(
    host,
    '/members.html',
    page('Members', 'Members receive the newsletter four times a year.', [rel('/members.html', '/nav.html', 'Back')]),
  );
  addPage(
    host,
    '/broken.html',
    page(
      'Links and more',
      'This page was written by hand in 1998 and never validated.',
      [
        rel('/broken.html', '/guestbook.html', 'Guestbook'),
        rel('/broken.html', '/links.html', 'Links'),
        rel('/broken.html', '/timetable.html', 'Timetable'),
      ],
      { layout: 'broken' },
    ),
  );
  addPage(
    host,
    '/guestbook.html',
    page('Guestbook', 'Please sign our guestbook!', [rel('/guestbook.html', '/broken.html', 'Back')]),
  );
  addPage(
    host,
    '/links.html',
    page('Friends', 'Other sites we like.', [
      makeLink(at('/links.html'), { origin: ctx.origins.news, path: '/' }, 'The Daily Ledger', { form: 'absolute' }),
      makeLink(at('/links.html'), { origin: ctx.origins.slow, path: '/' }, 'A slow site', { form: 'upper-scheme' }),
    ]),
  );
  addPage(
    host,
    '/refresh.html',
    page('Moved', 'This page has moved. You will be redirected.', [], {
      metaRefresh: { href: 'new-home.html', target: `${origin}/new-home.html` },
    }),
  );
  addPage(
    host,
    '/new-home.html',
    page('New home', 'Our new home page, reachable only through the old one.', [
      rel('/new-home.html', '/nav.html', 'Navigation'),
    ]),
  );
  addResource(host, '/moved.html', {
    kind: 'redirect',
    status: 301,
    location: `${ctx.origins.mirror}/docs/`,
    target: `${ctx.origins.mirror}/docs/`,
  });
  addResource(host, '/missing.html', { kind: 'error', status: 404 });
  addResource(
    host,
    '/readme.txt',
    staticFile(
      'text/plain; charset=utf-8',
      'Regional Rail Society web site.\nMaintained by the webmaster since 1998.\n',
    ),
  );
  addResource(host, '/sitemap.xml', createSitemapResource(host, ctx.seed));
  return { host, declarations: {} };
}
