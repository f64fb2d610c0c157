import { staticFile } from '../files/static-file.js';
import { addPage, addResource, createHost, fixedContent, standardPage } from '../model/page-kit.js';
import type { HostModel } from '../model/web-model.js';
import type { RenderBuildContext } from './render-hosts.js';
import { pageScript, scriptLinks } from './script-kit.js';

const PAGES = 12;

/**
 * inert: pages that look like script shells (one short sentence inside an app root, under a heavy
 * inline script) although the script changes neither links nor text. A crawler that learns per
 * site renders a few of them, sees that rendering changes nothing, and stops.
 */
export function buildInertHost(ctx: RenderBuildContext): HostModel {
  const origin = ctx.origins.inert;
  const host = createHost('inert', origin, { noise: false, validators: false });
  const pathOf = (i: number) => (i === 0 ? '/' : `/page/${i}`);
  for (let i = 0; i < PAGES; i++) {
    const children = [1, 2, 3].map((k) => 3 * i + k).filter((child) => child < PAGES);
    const targets = [...children.map(pathOf), ...(i === 0 ? [] : ['/'])];
    const content = fixedContent(`inert:${ctx.seed}:${i}`, [`Quiet Labs note ${i}: nothing here moves.`]);
    addPage(
      host,
      pathOf(i),
      standardPage({
        title: `Note ${i}`,
        template: 'scripted',
        content,
        links: scriptLinks(origin, pathOf(i), targets, (path) => `Note ${path}`),
        script: pageScript({ role: 'inert', data: '' }),
      }),
    );
  }
  addResource(host, '/robots.txt', staticFile('text/plain; charset=utf-8', 'User-agent: *\nAllow: /\n'));
  return host;
}
