import { addPage, makeLink, pickChangeRate, proseContent, standardPage } from '../model/page-kit.js';
import type { HostModel, Link } from '../model/web-model.js';
import { docsContent, docsSlug, docsTitle } from './shared-content.js';

/** Docs pages that the blog hosts and the mirror copies byte for byte. */
export const SHARED_DOCS_COUNT = 6;

/**
 * Adds `/docs/` and chapters 0..count-1 to a host. Chapters only use root-relative links to
 * chapters that every copy has, so the same chapter is byte-identical on each host.
 */
export function addDocsPages(host: HostModel, seed: number, count: number): string[] {
  const at = (path: string) => ({ origin: host.origin, path });
  const paths = Array.from({ length: count }, (_, n) => `/docs/${docsSlug(seed, n)}`);
  const toc = (from: string): Link[] => [makeLink(at(from), at('/docs/'), 'Contents', { placement: 'nav' })];
  addPage(
    host,
    '/docs/',
    standardPage({
      title: 'Lantern Manual',
      template: 'docs',
      content: proseContent(seed, `docs:index:${host.name}`, pickChangeRate(seed, `docs:index:${host.name}`), 1),
      links: [...toc('/docs/'), ...paths.map((p, n) => makeLink(at('/docs/'), at(p), docsTitle(seed, n)))],
    }),
  );
  paths.forEach((path, n) => {
    // Shared chapters stay within the shared set; mirror-only chapters may link anywhere.
    const span = n < SHARED_DOCS_COUNT ? Math.min(count, SHARED_DOCS_COUNT) : count;
    const neighbours = [(n + 1) % span, (n + span - 1) % span].filter((m) => m !== n);
    addPage(
      host,
      path,
      standardPage({
        title: docsTitle(seed, n),
        template: 'docs',
        content: docsContent(seed, n),
        links: [
          ...toc(path),
          ...[...new Set(neighbours)].map((m) => makeLink(at(path), at(paths[m] as string), docsTitle(seed, m))),
        ],
      }),
    );
  });
  return paths;
}
