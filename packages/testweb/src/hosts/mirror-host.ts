import { createSitemapResource } from '../files/sitemap-file.js';
import { staticFile } from '../files/static-file.js';
import { addPage, addResource, createHost, fixedContent, makeLink, standardPage } from '../model/page-kit.js';
import { addDocsPages, SHARED_DOCS_COUNT } from './docs-pages.js';
import type { FullBuildContext, HostBuild } from './full-context.js';

/** Mirror: the full docs, byte-identical to the blog's copy where both have a chapter; validators, no noise. */
export function buildMirrorHost(ctx: FullBuildContext): HostBuild {
  const origin = ctx.origins.mirror;
  const host = createHost('mirror', origin, { noise: false, validators: true });
  const at = (path: string) => ({ origin, path });
  const chapters = addDocsPages(host, ctx.seed, Math.max(SHARED_DOCS_COUNT + 2, ctx.pagesPerHost - 3));
  const first = chapters[0] as string;
  // The same bytes again under the directory-index spelling of the first chapter.
  const firstPage = host.resources.get(first)!;
  addResource(host, `${first}/index.html`, firstPage);
  addPage(
    host,
    '/',
    standardPage({
      title: 'Lantern Manual mirror',
      template: 'docs',
      content: fixedContent('mirror:home', ['A mirror of the Lantern Manual, refreshed nightly.']),
      links: [
        makeLink(at('/'), at('/docs/'), 'Read the manual'),
        makeLink(at('/'), at(`${first}/index.html`), 'Start here'),
      ],
    }),
  );
  addResource(
    host,
    '/robots.txt',
    staticFile(
      'text/plain; charset=utf-8',
      ['User-agent: *', 'Disallow:', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n'),
    ),
  );
  addResource(host, '/sitemap.xml', createSitemapResource(host, ctx.seed));

  const blog = ctx.origins.blog;
  return {
    host,
    declarations: {
      exactDuplicates: chapters
        .slice(0, SHARED_DOCS_COUNT)
        .map((path, i) => [`${blog}${path}`, `${origin}${path}`, ...(i === 0 ? [`${origin}${path}/index.html`] : [])]),
    },
  };
}
