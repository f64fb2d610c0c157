import { jsonFile, renderStaticFiles } from '../files/render-scripts.js';
import { staticFile } from '../files/static-file.js';
import { addPage, addResource, createHost, makeLink, proseContent, standardPage } from '../model/page-kit.js';
import type { HostModel, PageScript, PageSpec } from '../model/web-model.js';
import type { RenderBuildContext } from './render-hosts.js';
import { dataPath, pageScript, scriptLinks } from './script-kit.js';

const ITEMS = 8;

/** Off-machine loads one page's script attempts: cloud metadata, private and documentation ranges, never a public address. */
export const APP_OFF_MACHINE: PageScript['offMachine'] = [
  { url: 'http://203.0.113.7/lib.js', as: 'script' },
  { url: 'http://198.51.100.9/pixel.png', as: 'img' },
  { url: 'http://169.254.169.254/latest/meta-data/', as: 'fetch' },
  { url: 'http://10.1.2.3/internal/api', as: 'fetch' },
];

/**
 * app: a single-page app. Every page answers the same empty shell; /static/app.js reads the page's
 * title, text and links from /api/content. /go/welcome is a shell whose script redirects, two items
 * fetch HTML teasers that nothing links to, the home page's script requests a path robots.txt
 * forbids, and item 3 tries to load resources from off-machine addresses.
 */
export function buildAppHost(ctx: RenderBuildContext): HostModel {
  const origin = ctx.origins.app;
  const host = createHost('app', origin, { noise: false, validators: false });
  const items = Array.from({ length: ITEMS }, (_, i) => `/item/${i + 1}`);
  const shell = (path: string, title: string, fields: Partial<PageScript>): void => {
    const script = pageScript({ role: 'shell', data: dataPath('/api/content', path), ...fields });
    const page = standardPage({
      title,
      template: 'app',
      content: proseContent(ctx.seed, `app:${path}`, 0, 2),
      links: [],
      script,
    });
    addPage(host, path, page);
    addResource(
      host,
      script.data,
      jsonFile(() => contentOf(page)),
    );
  };
  const links = (from: string, targets: string[]) => scriptLinks(origin, from, targets);

  shell('/', 'Atlas', {
    links: links('/', [...items, '/about', '/go/welcome', '/private/settings']),
    fetches: [`${origin}/private/track`],
  });
  items.forEach((path, i) => {
    const fetches = i < 2 ? [`${origin}/teasers/${i + 1}`] : [];
    shell(path, `Atlas item ${i + 1}`, {
      links: links(path, ['/', items[(i + 1) % ITEMS]!]),
      fetches,
      offMachine: i === 2 ? APP_OFF_MACHINE : [],
    });
  });
  shell('/about', 'About Atlas', { links: links('/about', ['/']) });
  shell('/go/welcome', 'Welcome', { role: 'redirect', redirect: { href: '/welcome', target: `${origin}/welcome` } });
  shell('/welcome', 'Welcome to Atlas', { links: links('/welcome', ['/', '/item/1']) });
  for (const n of [1, 2]) {
    const path = `/teasers/${n}`;
    addPage(
      host,
      path,
      standardPage({
        title: `Teaser ${n}`,
        template: 'plain',
        content: proseContent(ctx.seed, `app:${path}`, 0, 1),
        links: [makeLink({ origin, path }, { origin, path: '/' }, 'Atlas home')],
      }),
    );
  }
  for (const [path, resource] of renderStaticFiles()) addResource(host, path, resource);
  addResource(host, '/robots.txt', staticFile('text/plain; charset=utf-8', 'User-agent: *\nDisallow: /private/\n'));
  return host;
}

/** What /api/content answers for a shell: everything the script puts on the page. */
function contentOf(page: PageSpec): unknown {
  const script = page.script!;
  if (script.role === 'redirect') return { redirect: script.redirect!.href };
  return {
    title: page.title,
    paragraphs: page.content.paragraphs(0),
    links: script.links.map((link) => ({ href: link.href, text: link.text })),
    fetches: script.fetches,
    offMachine: script.offMachine,
  };
}
