import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebModel } from './model/build-web.js';
import type { WebModel } from './model/web-model.js';
import { resolveOptions } from './options.js';
import { createPageRenderer } from './server/page-renderer.js';
import { httpGet, mainOf } from './test-support/http-get.js';
import { startTestWeb, type TestWeb } from './test-web.js';
import { computeGroundTruth } from './truth/compute-ground-truth.js';
import type { GroundTruth } from './truth/ground-truth.js';

const ORIGINS = Array.from({ length: 6 }, (_, i) => `http://127.0.0.1:${5000 + i}`);

/** Every page body of the model; noisy hosts contribute only their <main>, the rest is per request. */
function renderAll(web: WebModel): Map<string, string> {
  const renderer = createPageRenderer(web.seed);
  const bodies = new Map<string, string>();
  for (const host of web.hosts) {
    for (const [path, resource] of host.resources) {
      if (!('page' in resource)) continue;
      const body = renderer.render(host, resource.page, 0).body.toString('latin1');
      bodies.set(`${host.origin}${path}`, host.noise ? (mainOf(body) ?? '') : body);
    }
  }
  return bodies;
}

describe('determinism', () => {
  it('builds the same truth and the same bytes from the same seed', () => {
    const a = buildWebModel(resolveOptions({ seed: 42 }), ORIGINS);
    const b = buildWebModel(resolveOptions({ seed: 42 }), ORIGINS);
    expect(computeGroundTruth(a, 3)).toEqual(computeGroundTruth(b, 3));
    expect(renderAll(a)).toEqual(renderAll(b));
  });

  it('builds a different web from a different seed', () => {
    const a = buildWebModel(resolveOptions({ seed: 1 }), ORIGINS);
    const b = buildWebModel(resolveOptions({ seed: 2 }), ORIGINS);
    expect(computeGroundTruth(a, 0).pages).not.toEqual(computeGroundTruth(b, 0).pages);
    const [bodiesA, bodiesB] = [renderAll(a), renderAll(b)];
    const shared = [...bodiesA.keys()].filter((k) => bodiesB.has(k));
    expect(shared.filter((k) => bodiesA.get(k) !== bodiesB.get(k)).length).toBeGreaterThan(shared.length / 2);
  });

  describe('over HTTP on OS-chosen ports', () => {
    let first: TestWeb;
    let second: TestWeb;
    beforeAll(async () => {
      [first, second] = await Promise.all([startTestWeb({ seed: 9 }), startTestWeb({ seed: 9 })]);
    });
    afterAll(() => Promise.all([first.close(), second.close()]));

    // Ports differ between the two webs, so origins are replaced by host names before comparing.
    const portless = (web: TestWeb, text: string) =>
      web.hosts.reduce((t, h) => t.split(h.origin.replace('http://', '')).join(`<${h.name}>`), text);
    const truthOf = (web: TestWeb): GroundTruth => JSON.parse(portless(web, JSON.stringify(web.groundTruth())));

    it('serves the same truth and the same bytes on noise-free hosts', async () => {
      expect(truthOf(first)).toEqual(truthOf(second));
      const quiet = new Set(['blog', 'legacy', 'mirror']);
      const paths = first
        .groundTruth()
        .pages.filter((p) => quiet.has(first.hosts.find((h) => p.startsWith(`${h.origin}/`))!.name))
        .map((p) => p.replace(/^http:\/\/[^/]+/, ''));
      expect(paths.length).toBeGreaterThan(50);
      for (const name of quiet) {
        const [a, b] = [first, second].map((w) => w.hosts.find((h) => h.name === name)!.origin);
        for (const path of paths.filter((p) => p !== '/').slice(0, 40)) {
          const [ra, rb] = await Promise.all([httpGet(`${a}${path}`), httpGet(`${b}${path}`)]);
          expect(portless(second, portless(first, ra.body.toString('latin1')))).toBe(
            portless(second, portless(first, rb.body.toString('latin1'))),
          );
        }
      }
    });
  });
});
