import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';
import type { RenderReport } from './render.js';
import { capture } from '../test-support/capture-output.js';

// Browsers on a shared two-core machine: a render may take seconds, so tests get a minute.
describe('crawler render', { timeout: 60_000 }, () => {
  let web: TestWeb;
  const at = (name: string, path: string) => `${web.hosts.find((host) => host.name === name)!.origin}${path}`;
  beforeAll(async () => {
    web = await startTestWeb({ profile: 'render' });
  });
  afterAll(() => web.close());
  afterEach(() => vi.restoreAllMocks());

  it('shows a shell rendered: its new links, the requests refused and why', async () => {
    const io = capture();
    expect(await runCli(['render', '--json', '--allow-address', '127.0.0.1', at('app', '/item/3')])).toBe(0);
    const report = JSON.parse(io.out()) as RenderReport;
    expect(report).toMatchObject({ route: 'shell', result: 'rendered', links: { before: 0 } });
    expect(report.links.added).toContain(at('app', '/item/4'));
    expect(report.requests.refused).toMatchObject({ blocked_address: 3, type: 1 });
    expect(report.refusals.map((r) => r.url)).toContain('http://169.254.169.254/latest/meta-data/');
  });

  it('leaves a plain page alone unless forced, and scrolls when told to', async () => {
    const io = capture();
    expect(await runCli(['render', '--allow-address', '127.0.0.1', at('mixed', '/feed')])).toBe(0);
    expect(io.out()).toMatch(/route\s+plain\nresult\s+not rendered/);
    expect(
      await runCli([
        'render',
        '--json',
        '--allow-address',
        '127.0.0.1',
        '--force',
        '--scrolls',
        '3',
        at('mixed', '/feed'),
      ]),
    ).toBe(0);
    const report = JSON.parse(io.out().split('\n').filter(Boolean).pop()!) as RenderReport;
    expect(report).toMatchObject({ route: 'rule', result: 'rendered' });
    expect(report.links.added).toContain(at('mixed', '/feed/item/12'));
    expect(await runCli(['render', '--scrolls', '2', at('mixed', '/feed')])).toBe(2);
  });
});
