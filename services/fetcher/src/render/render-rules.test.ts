import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { loadRenderJob } from './render-job.js';
import { loadRenderRulesFile, parseRenderRules, RenderRules } from './render-rules.js';

const fileWith = async (name: string, value: unknown) => {
  const path = join(await mkdtemp(join(tmpdir(), 'render-')), name);
  await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

describe('render rules', () => {
  it('lets the first matching rule decide, with defaults filled in', () => {
    const rules = new RenderRules(
      parseRenderRules(
        [
          { pattern: '/app/admin', render: 'never' },
          { pattern: '^https://shop\\.test/feed', scrolls: 3 },
          { pattern: '/app/' },
        ],
        'test',
      ),
    );
    expect(rules.match('https://shop.test/app/admin/x')).toMatchObject({ render: 'never' });
    expect(rules.match('https://shop.test/feed?page=1')).toEqual({
      pattern: '^https://shop\\.test/feed',
      render: 'always',
      scrolls: 3,
      clicks: 5,
    });
    expect(rules.match('https://shop.test/app/home')).toMatchObject({ render: 'always', scrolls: 0 });
    expect(rules.match('https://shop.test/about')).toBeNull();
  });

  it('reads a rule file as a list or under "rules", and names the bad field', async () => {
    expect(loadRenderRulesFile(await fileWith('a.json', [{ pattern: 'x', click: 'button.more', clicks: 2 }]))).toEqual([
      { pattern: 'x', render: 'always', scrolls: 0, click: 'button.more', clicks: 2 },
    ]);
    expect(
      loadRenderRulesFile(await fileWith('b.json', { rules: [{ pattern: 'y', render: 'learn' }] }))[0],
    ).toMatchObject({ render: 'learn' });
    const bad = await fileWith('d.json', [{ pattern: '(' }]);
    expect(() => loadRenderRulesFile(bad)).toThrow(/rules\.0\.pattern: not a valid regular expression/);
    expect(() => loadRenderRulesFile(join(tmpdir(), 'no-such-rules.json'))).toThrow(ConfigError);
    // A key it does not know is refused, not read as "no rules".
    const misspelt = await fileWith('c.json', { rulez: [{ pattern: 'y' }] });
    expect(() => loadRenderRulesFile(misspelt)).toThrow(/"rulez" is not known/);
    expect(() => parseRenderRules([{ pattern: 'y', scroll: 3 }], 'd.json')).toThrow(/d\.json: rules\.0: .*"scroll"/);
  });

  it("reads the crawl job's rendering section and ignores everything else in the job", async () => {
    expect(loadRenderJob(undefined)).toEqual({ enabled: false, rules: [] });
    expect(
      loadRenderJob(await fileWith('job.json', { seeds: ['http://a.test/'], extraction: { feeds: true } })),
    ).toEqual({ enabled: false, rules: [] });
    const job = loadRenderJob(
      await fileWith('job.json', {
        seeds: [],
        rendering: { enabled: true, rules: [{ pattern: '/spa/', render: 'learn' }] },
      }),
    );
    expect(job).toMatchObject({ enabled: true, rules: [{ pattern: '/spa/', render: 'learn' }] });
    const bad = await fileWith('job.json', { rendering: { enabled: 'yes' } });
    expect(() => loadRenderJob(bad)).toThrow(/rendering\.enabled/);
  });
});
