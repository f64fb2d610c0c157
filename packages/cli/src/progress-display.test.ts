import { createSchedulerCounters, type CrawlSnapshot } from '@crawler/scheduler';
import { describe, expect, it } from 'vitest';
import { buildSummary, formatNothingDue, formatSummary } from './crawl-summary.js';
import { ProgressDisplay } from './progress-display.js';

function snapshot(ok: number, failed = 0): CrawlSnapshot {
  const counters = createSchedulerCounters();
  counters.outcomes.set('ok', ok);
  if (failed > 0) counters.outcomes.set('server_error', failed);
  counters.changes.set('new', ok - 2);
  counters.changes.set('duplicate', 2);
  counters.linksReceived = ok * 5;
  counters.discovered = ok + 10;
  return {
    total: ok + 10,
    byStatus: { fetched: ok - 2, duplicate: 2, queued: 10 },
    leased: 3,
    byJob: {},
    due: null,
    dueDetail: null,
    nextDueAt: null,
    pending: 10,
    inFlight: 3,
    budgetSpent: false,
    counters,
  };
}

/** A stream that records what is written, as a terminal or as a pipe. */
function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) > 0 } as unknown as NodeJS.WriteStream };
}

describe('ProgressDisplay', () => {
  it('rewrites one line in place on a terminal, padding over a longer previous line, and ends it', () => {
    const tty = stream(true);
    const display = new ProgressDisplay(tty.stream);
    display.update(snapshot(1000), 2000);
    display.update(snapshot(10), 2500);
    display.finish();
    expect(tty.writes[0]).toBe(
      '\r[2.0s] pages 1000 · answered 1000 · known 1010 · pending 10 · in flight 3 · 500.0 pages/s',
    );
    expect(tty.writes[1]!.startsWith('\r[2.5s] pages 10 · answered 10 · known 20')).toBe(true);
    expect(tty.writes[1]!.length).toBe(tty.writes[0]!.length);
    expect(tty.writes[2]).toBe('\n');
  });

  it('writes a plain line every few seconds on a pipe, never a carriage return', () => {
    const pipe = stream(false);
    const display = new ProgressDisplay(pipe.stream, 5000);
    for (let ms = 1000; ms <= 12_000; ms += 1000) display.update(snapshot(ms / 10, 1), ms);
    display.finish();
    expect(pipe.writes).toEqual([
      '[5.0s] pages 500 · answered 501 · known 510 · pending 10 · in flight 3 · 100.0 pages/s\n',
      '[10.0s] pages 1000 · answered 1001 · known 1010 · pending 10 · in flight 3 · 100.0 pages/s\n',
    ]);
  });
});

describe('the crawl summary', () => {
  it('reports pages, outcomes, decisions, links and the output folders', () => {
    const summary = buildSummary(
      snapshot(300, 4),
      'complete',
      12_000,
      { pages: 'out/warc', linkbase: 'out/linkbase' },
      Date.UTC(2026, 0, 1),
    );
    expect(summary).toMatchObject({
      pagesFetched: 300,
      pagesStored: 298,
      duplicatesRemoved: 2,
      requestsAnswered: 304,
      linksSeen: 1500,
      linksDiscovered: 310,
      pagesPerSecond: 25,
    });
    const text = formatSummary(summary);
    expect(text).toContain('pages fetched       300 (25 pages/s)');
    expect(text).toContain('fetch outcomes      ok 300 · server_error 4');
    expect(text).toContain('pages stored        298 (new 298, changed 0)');
    expect(text).toContain('link base           310 URLs: fetched 298 · duplicate 2 · queued 10');
    expect(text).toContain('output              pages: out/warc; link base: out/linkbase');
    expect(text).toContain('next due            none: every known URL is final');
    const stopped = buildSummary(
      { ...snapshot(300), due: 42, nextDueAt: Date.UTC(2026, 0, 2) },
      'interrupted',
      12_000,
      { pages: 'out/warc', linkbase: 'out/linkbase' },
      Date.UTC(2026, 0, 1),
    );
    expect(formatSummary(stopped)).toContain(
      'next due            now: 42 URLs (run again with the same --out to go on)',
    );
  });

  it('says when the next URL comes due, and with nothing due how to re-check sooner', () => {
    const now = Date.UTC(2026, 0, 1);
    const summary = buildSummary(
      { ...snapshot(0), nextDueAt: now + 30 * 86_400_000 + 5 * 3_600_000 },
      'nothing due',
      500,
      { pages: 'out/warc', linkbase: 'out/linkbase' },
      now,
    );
    expect(summary).toMatchObject({ nextDueAt: '2026-01-31T05:00:00.000Z', nextDueInSeconds: 30 * 86_400 + 5 * 3600 });
    expect(formatSummary(summary)).toContain('next due            2026-01-31 05:00 UTC (in 30d 5h)');
    const text = formatNothingDue(summary, 'out/crawl-summary.json', true);
    expect(text).toContain('none of the 10 known URLs is due yet');
    expect(text).toContain("out/crawl-summary.json still holds the previous run's");
    expect(text).toContain('run again with --clock-offset 31d');
  });

  it('counts pages, not requests: re-fetches are answered requests, and a resumed run counts only its own pages', () => {
    const refetched = snapshot(1000);
    refetched.counters.outcomes.set('ok', 1500); // 500 pages fetched twice
    const tty = stream(true);
    new ProgressDisplay(tty.stream).update(refetched, 2000);
    expect(tty.writes[0]).toBe(
      '\r[2.0s] pages 1000 · answered 1500 · known 1010 · pending 10 · in flight 3 · 500.0 pages/s',
    );
    const resumed = stream(true);
    new ProgressDisplay(resumed.stream, 5000, snapshot(400)).update(refetched, 2000);
    expect(resumed.writes[0]!.startsWith('\r[2.0s] pages 600 · answered 1500')).toBe(true);
    expect(
      buildSummary(refetched, 'complete', 2000, { pages: 'p', linkbase: 'l' }, Date.UTC(2026, 0, 1), snapshot(400)),
    ).toMatchObject({
      pagesFetched: 600,
      requestsAnswered: 1500,
      pagesPerSecond: 300,
    });
  });
});
