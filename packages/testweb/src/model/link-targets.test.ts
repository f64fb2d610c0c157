import { describe, expect, it } from 'vitest';
import { canonicalizeUrl } from '../canonical-url.js';
import { resolveOptions } from '../options.js';
import { buildWebModel } from './build-web.js';

const ORIGINS = Array.from({ length: 7 }, (_, i) => `http://127.0.0.1:${6000 + i}`);

// Hrefs are written in many forms; each must still point where its author meant.
describe('every link of the model', () => {
  it('resolves, the way a browser would, to the target its builder intended', () => {
    const web = buildWebModel(resolveOptions({ seed: 11, hosts: 7 }), ORIGINS);
    let checked = 0;
    for (const host of web.hosts) {
      for (const [path, resource] of host.resources) {
        const url = `${host.origin}${path}`;
        if (resource.kind === 'redirect') {
          expect(canonicalizeUrl(resource.location, url), url).toBe(resource.target);
          checked++;
        }
        if (!('page' in resource)) continue;
        const { page } = resource;
        const base = page.baseHref === undefined ? url : canonicalizeUrl(page.baseHref, url);
        for (const link of page.links) {
          expect(canonicalizeUrl(link.href, base), `${url} -> ${link.href}`).toBe(link.target);
          checked++;
        }
        if (page.metaRefresh) expect(canonicalizeUrl(page.metaRefresh.href, url)).toBe(page.metaRefresh.target);
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });
});
