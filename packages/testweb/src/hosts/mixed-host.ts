import { jsonFile, renderStaticFiles } from '../files/render-scripts.js';
import { staticFile } from '../files/static-file.js';
import { addPage, addResource, createHost, proseContent, standardPage } from '../model/page-kit.js';
import type { HostModel, Link, PageScript } from '../model/web-model.js';
import type { RenderBuildContext } from './render-hosts.js';
import { dataPath, pageScript, scriptLinks } from './script-kit.js';

const BATCH = 4;

/**
 * mixed: a news site that is mostly plain HTML (every page carries an analytics script, which must
 * not make it look dynamic). Scripts matter on four pages: /live adds its updates on load, /feed
 * is an infinite-scroll list, /archive has a "load more" button, /go/special redirects by script.
 */
export function buildMixedHost(ctx: RenderBuildContext): HostModel {
  const origin = ctx.origins.mixed;
  const host = createHost('mixed', origin, { noise: false, validators: false });
  const links = (from: string, targets: string[]) => scriptLinks(origin, from, targets, (path) => `Read ${path}`);
  const plain = (path: string, title: string, targets: string[], script?: PageScript): void =>
    addPage(
      host,
      path,
      standardPage({
        title,
        template: 'scripted',
        content: proseContent(ctx.seed, `mixed:${path}`, 0, 3),
        links: links(path, targets),
        ...(script ? { script } : {}),
      }),
    );
  const enhanced = (
    path: string,
    title: string,
    initial: string[],
    extra: string[],
    fields: Pick<PageScript, 'trigger' | 'steps'>,
  ): void => {
    const script = pageScript({
      role: 'enhanced',
      data: dataPath('/api/links', path),
      links: links(path, extra),
      ...fields,
    });
    plain(path, title, initial, script);
    for (let step = 0; step < script.steps; step++) {
      const batch: Link[] = script.links.slice(step * BATCH, (step + 1) * BATCH);
      addResource(
        host,
        `${script.data}&step=${step}`,
        jsonFile(() => ({ links: batch.map((link) => ({ href: link.href, text: link.text })) })),
      );
    }
  };
  const series = (prefix: string, from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);

  const articles = series('/article/', 1, ctx.articles);
  plain('/', 'Harbor Daily', [...articles, '/live', '/feed', '/archive', '/go/special']);
  articles.forEach((path, i) => plain(path, `Story ${i + 1}`, ['/', articles[(i + 1) % articles.length]!]));

  enhanced('/live', 'Live: the harbor festival', ['/'], series('/live/update/', 1, 3), { trigger: 'load', steps: 1 });
  for (const path of series('/live/update/', 1, 3)) plain(path, `Update ${path.slice(-1)}`, ['/live']);
  enhanced(
    '/feed',
    'Readers\u2019 feed',
    ['/', ...series('/feed/item/', 1, BATCH)],
    series('/feed/item/', BATCH + 1, 3 * BATCH),
    { trigger: 'scroll', steps: 2 },
  );
  for (const path of series('/feed/item/', 1, 3 * BATCH)) plain(path, `Feed item ${path.split('/').pop()}`, ['/feed']);
  enhanced('/archive', 'Archive', ['/'], series('/archive/old/', 1, 2 * BATCH), { trigger: 'click', steps: 2 });
  for (const path of series('/archive/old/', 1, 2 * BATCH))
    plain(path, `From the archive ${path.split('/').pop()}`, ['/archive']);

  const special = `${origin}/special-offer`;
  addPage(
    host,
    '/go/special',
    standardPage({
      title: 'Special offer',
      template: 'scripted',
      content: proseContent(ctx.seed, 'mixed:/go/special', 0, 1),
      links: [],
      script: pageScript({ role: 'redirect', data: '', redirect: { href: '/special-offer', target: special } }),
    }),
  );
  plain('/special-offer', 'This week\u2019s special offer', ['/']);

  for (const [path, resource] of renderStaticFiles()) addResource(host, path, resource);
  addResource(host, '/robots.txt', staticFile('text/plain; charset=utf-8', 'User-agent: *\nAllow: /\n'));
  return host;
}
