import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWeb, type GroundTruth, type TestWeb } from '@crawler/testweb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';
import type { SimilarReport } from './check-similar.js';
import { capture } from '../test-support/capture-output.js';

const local = ['--allow-address', '127.0.0.1', '--user-agent', 'crawler-test/1.0 (+https://example.test/bot)'];
const sentences = (salt: string) =>
  Array.from(
    { length: 40 },
    (_, i) =>
      `<p>The ${salt} harbor council met for session ${i} and discussed ferries, budgets and the bridge repairs in detail.</p>`,
  ).join('');

describe('crawler check similar', () => {
  let web: TestWeb;
  let truth: GroundTruth;
  beforeAll(async () => {
    web = await startTestWeb({ seed: 2 });
    truth = web.groundTruth();
  });
  afterAll(() => web.close());
  afterEach(() => vi.restoreAllMocks());

  it("finds the test web's reprint of a news article near the original, with both fingerprints", async () => {
    const pair = truth.nearDuplicates.find((entry) => entry.kind === 'reprint-other-template')!;
    const io = capture();
    expect(await runCli(['check', 'similar', '--json', ...local, pair.a, pair.b])).toBe(0);
    const report = JSON.parse(io.out()) as SimilarReport;
    expect(report).toMatchObject({
      decision: 'near_duplicate',
      a: { url: pair.a },
      b: { url: pair.b },
      limits: { body: 3, resemblance: 0.5 },
    });
    expect(report.resemblance).toBeGreaterThanOrEqual(0.5);
    expect(report.a.simhash).toMatch(/^[0-9a-f]{16}$/);
    expect(report.a.textChars).toBeGreaterThan(200);
    expect(report.a.digest).not.toBe(report.b.digest);
  });

  it('reads files, says why two pages differ, and prints it for people', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'similar-'));
    writeFileSync(
      join(dir, 'a.html'),
      `<html><head><title>Council notes | Ledger</title></head><body><article>${sentences('north')}</article></body></html>`,
    );
    writeFileSync(
      join(dir, 'b.html'),
      `<html><head><title>Council notes | Ledger</title></head><body><nav>Home</nav><article>${sentences('north')}</article></body></html>`,
    );
    writeFileSync(
      join(dir, 'c.html'),
      `<html><head><title>Weather today | Ledger</title></head><body><article><p>Rain, then sun.</p></article></body></html>`,
    );
    const io = capture();
    expect(await runCli(['check', 'similar', join(dir, 'a.html'), join(dir, 'b.html')])).toBe(0);
    expect(io.out()).toMatch(/decision +exact duplicate: same digest/);
    expect(io.out()).toMatch(/main text +\d+ characters, \d+ content words/);
    expect(await runCli(['check', 'similar', '--json', join(dir, 'a.html'), join(dir, 'c.html')])).toBe(0);
    expect(JSON.parse(io.out().split('\n').filter(Boolean).at(-1)!) as SimilarReport).toMatchObject({
      decision: 'too_short',
    });
    // Saved from one site, a copy must have that site's title.
    writeFileSync(
      join(dir, 'd.html'),
      `<html><head><title>Ferry timetable | Ledger</title></head><body><article>${sentences('north')}</article></body></html>`,
    );
    expect(await runCli(['check', 'similar', '--json', join(dir, 'a.html'), join(dir, 'd.html')])).toBe(0);
    expect(JSON.parse(io.out().split('\n').filter(Boolean).at(-1)!) as SimilarReport).toMatchObject({
      decision: 'near_duplicate',
    });
    const site = ['--url-a', 'https://ledger.test/a', '--url-b', 'https://ledger.test/d'];
    expect(await runCli(['check', 'similar', '--json', ...site, join(dir, 'a.html'), join(dir, 'd.html')])).toBe(0);
    expect(JSON.parse(io.out().split('\n').filter(Boolean).at(-1)!) as SimilarReport).toMatchObject({
      decision: 'different',
      reason: expect.stringMatching(/^same site, headlines/),
    });
    expect(await runCli(['check', 'similar', join(dir, 'a.html')])).toBe(2);
    expect(
      await runCli(['check', 'similar', ...local, `${truth.hosts[0]!.origin}/no-such-page`, join(dir, 'a.html')]),
    ).toBe(1);
    expect(io.err()).toContain('was not fetched');
  });
});
