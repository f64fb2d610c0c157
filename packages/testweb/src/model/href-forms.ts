import type { Random } from '../seeded-random.js';

/** The ways a page author may write the same link. */
export type HrefForm =
  | 'absolute'
  | 'root'
  | 'relative'
  | 'dot'
  | 'parent'
  | 'fragment'
  | 'upper-scheme'
  | 'scheme-relative'
  | 'dot-segments';

const SAME_HOST_FORMS: readonly HrefForm[] = [
  'root',
  'root',
  'relative',
  'dot',
  'parent',
  'fragment',
  'absolute',
  'upper-scheme',
  'scheme-relative',
  'dot-segments',
];

export interface Location {
  origin: string;
  /** Path plus query, starting with "/". */
  path: string;
}

/**
 * Writes a link from a page (or its <base>) to a target in the given form. Forms that need a shared
 * origin fall back to an absolute URL across hosts.
 */
export function writeHref(from: Location, to: Location, form: HrefForm): string {
  const sameOrigin = from.origin === to.origin;
  switch (form) {
    case 'absolute':
      return `${to.origin}${to.path}`;
    case 'upper-scheme':
      return `${to.origin.replace(/^http/, 'HTTP')}${to.path}`;
    case 'scheme-relative':
      return `${to.origin.replace(/^https?:/, '')}${to.path}`;
    case 'dot-segments':
      return `${to.origin}/./archive/..${to.path}`;
    case 'fragment':
      return `${sameOrigin ? '' : to.origin}${to.path}#section-2`;
    case 'root':
      return sameOrigin ? to.path : `${to.origin}${to.path}`;
    case 'relative':
    case 'dot':
    case 'parent': {
      if (!sameOrigin) return `${to.origin}${to.path}`;
      const relative = relativePath(from.path, to.path);
      if (form === 'dot' && !relative.startsWith('../') && !relative.startsWith('./')) return `./${relative}`;
      if (form === 'parent' && !relative.startsWith('../')) return climbAndDescend(from.path, to.path);
      return relative;
    }
  }
}

export function pickSameHostForm(random: Random): HrefForm {
  return random.pick(SAME_HOST_FORMS);
}

/** The shortest path-relative reference from `fromPath`'s directory to `toPath`. */
export function relativePath(fromPath: string, toPath: string): string {
  const fromDir = splitPath(fromPath).slice(0, -1);
  const [toPathname = '/', query = ''] = splitQuery(toPath);
  const to = splitPath(toPathname);
  let common = 0;
  while (common < fromDir.length && common < to.length - 1 && fromDir[common] === to[common]) common++;
  const rest = to.slice(common).join('/');
  const reference = `${'../'.repeat(fromDir.length - common)}${rest}${query}`;
  // An empty reference or one starting with "?" or containing ":" early would mean something else.
  if (reference === '' || reference.startsWith('?') || /^[^/]*:/.test(reference)) return `./${reference}`;
  return reference;
}

// A "../" form even where a plain relative one would do: up one level and back down.
function climbAndDescend(fromPath: string, toPath: string): string {
  const fromDir = splitPath(fromPath).slice(0, -1);
  if (fromDir.length === 0) return toPath;
  return `../${fromDir[fromDir.length - 1]}/${relativePath(fromPath, toPath).replace(/^\.\//, '')}`;
}

function splitPath(pathname: string): string[] {
  return splitQuery(pathname)[0]!.split('/').slice(1);
}

function splitQuery(path: string): [string, string] {
  const q = path.indexOf('?');
  return q < 0 ? [path, ''] : [path.slice(0, q), path.slice(q)];
}
