import { staticFile } from '../files/static-file.js';
import { addPage, addResource, createHost, makeLink, standardPage } from '../model/page-kit.js';
import type { Content, HostModel, Link } from '../model/web-model.js';
import { createRandom } from '../seeded-random.js';
import { writeSentence } from '../text/prose.js';

export interface UniformHostOptions {
  name: string;
  origin: string;
  seed: number;
  pages: number;
  pageBytes: number;
  linksPerPage: number;
  template: 'bench' | 'plain';
}

// Markup around the prose (doctype, head, link list items) is roughly this many bytes per link and
// per page; the prose fills the rest of `pageBytes`.
const BYTES_PER_LINK = 42;
const FIXED_BYTES = 190;

/**
 * Uniform pages `/` and `/p/1`..`/p/{n-1}`. Page i links to its tree children i*c+1..i*c+c first,
 * so breadth-first search from `/` reaches every page within log_c(n) hops, then to random pages.
 * Robots allow everything; nothing is noisy, slow or broken.
 */
export function buildUniformHost(options: UniformHostOptions): HostModel {
  const { name, origin, seed, pages, linksPerPage } = options;
  const host = createHost(name, origin, { noise: false, validators: false });
  const pathOf = (i: number) => (i === 0 ? '/' : `/p/${i}`);
  const children = Math.max(1, linksPerPage - Math.floor(linksPerPage / 4));
  const proseBytes = Math.max(0, options.pageBytes - FIXED_BYTES - linksPerPage * BYTES_PER_LINK);
  for (let i = 0; i < pages; i++) {
    const path = pathOf(i);
    const random = createRandom(seed, 'uniform-links', name, i);
    const targets: number[] = [];
    for (let k = 1; k <= children && i * children + k < pages; k++) targets.push(i * children + k);
    while (targets.length < linksPerPage && pages > 1) {
      const t = random.int(pages);
      if (t !== i) targets.push(t);
    }
    const links: Link[] = targets.map((t) => makeLink({ origin, path }, { origin, path: pathOf(t) }, `Page ${t}`));
    const content = fillerContent(seed, `${name}:${i}`, proseBytes);
    addPage(host, path, standardPage({ title: `${name} page ${i}`, template: options.template, content, links }));
  }
  addResource(host, '/robots.txt', staticFile('text/plain; charset=utf-8', 'User-agent: *\nAllow: /\n'));
  return host;
}

function fillerContent(seed: number, key: string, bytes: number): Content {
  return {
    key,
    changeRate: 0,
    paragraphs: () => {
      const random = createRandom(seed, 'filler', key);
      const paragraphs: string[] = [];
      let length = 0;
      while (length < bytes) {
        const paragraph = [writeSentence(random), writeSentence(random), writeSentence(random)].join(' ');
        paragraphs.push(paragraph);
        length += paragraph.length + 8;
      }
      return paragraphs;
    },
  };
}
