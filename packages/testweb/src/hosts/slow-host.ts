import { createSitemapResource } from '../files/sitemap-file.js';
import { staticFile } from '../files/static-file.js';
import {
  addPage,
  addResource,
  createHost,
  fixedContent,
  makeLink,
  proseContent,
  standardPage,
} from '../model/page-kit.js';
import type { Link, PageSpec } from '../model/web-model.js';
import type { FullBuildContext, HostBuild } from './full-context.js';

const SLOW_PAGE_DELAY_MS = 1500;

/** Slow host: Crawl-delay 0.5 over only six pages, one page slow to answer, one that never ends. */
export function buildSlowHost(ctx: FullBuildContext): HostBuild {
  const origin = ctx.origins.slow;
  const host = createHost('slow', origin, { noise: false, validators: false });
  const at = (path: string) => ({ origin, path });
  const links = (from: string, targets: string[]): Link[] =>
    targets.map((to) => makeLink(at(from), at(to), `Go to ${to}`, { form: 'relative' }));
  const page = (path: string, targets: string[]): PageSpec =>
    standardPage({
      title: `Slow site ${path}`,
      template: 'plain',
      content: proseContent(ctx.seed, `slow:${path}`, 0.1, 1),
      links: links(path, targets),
    });

  addPage(host, '/', page('/', ['/a', '/b', '/slow', '/stream', '/admin/']));
  addPage(host, '/a', page('/a', ['/b', '/c']));
  addPage(host, '/b', page('/b', ['/c', '/']));
  addPage(host, '/c', page('/c', ['/d']));
  addPage(host, '/d', page('/d', ['/']));
  addResource(host, '/slow', {
    kind: 'slow',
    delayMs: SLOW_PAGE_DELAY_MS,
    page: standardPage({
      title: 'Worth the wait',
      template: 'plain',
      content: fixedContent('slow:slow', ['This page took a while.']),
      links: links('/slow', ['/']),
    }),
  });
  addResource(host, '/stream', { kind: 'endless' });
  addResource(
    host,
    '/robots.txt',
    staticFile(
      'text/plain; charset=utf-8',
      ['User-agent: *', 'Crawl-delay: 0.5', 'Disallow: /admin/', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n'),
    ),
  );
  addResource(host, '/sitemap.xml', createSitemapResource(host, ctx.seed));
  return { host, declarations: {} };
}
