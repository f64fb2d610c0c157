import { makeLink } from '../model/page-kit.js';
import type { Link, PageScript } from '../model/web-model.js';

/** Links written as root-relative paths, as scripts usually build them. */
export function scriptLinks(
  origin: string,
  from: string,
  targets: string[],
  label: (path: string) => string = (path) => `Open ${path}`,
): Link[] {
  return targets.map((to) => makeLink({ origin, path: from }, { origin, path: to }, label(to)));
}

/** A page script with nothing optional set. */
export function pageScript(fields: Pick<PageScript, 'role' | 'data'> & Partial<PageScript>): PageScript {
  return { links: [], trigger: 'load', steps: 1, fetches: [], offMachine: [], ...fields };
}

/** `/api/...?p=<path>`: the JSON a page's script reads, keyed by the page's path as the server sees it. */
export function dataPath(endpoint: string, pagePath: string): string {
  return `${endpoint}?p=${encodeURIComponent(pagePath)}`;
}
