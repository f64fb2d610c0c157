import {
  Codec,
  loadCatalog,
  prefixTopics,
  Schemas,
  Topics,
  type DeadLetter,
  type IncomingMessage,
} from '@crawler/core';
import { sampleMessages, waitFor } from '@crawler/core/testing';
import { InProcessBus } from '@crawler/embedded';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';
import { parseDlqRequest, runDlq, type DlqRequest } from './dlq.js';

const codec = new Codec();
const NOW = 1_790_000_000_000;
const list = (extra: Partial<DlqRequest> = {}): DlqRequest => ({
  action: 'list',
  limit: 50,
  json: false,
  dryRun: false,
  ...extra,
});
const replay = (extra: Partial<DlqRequest> = {}): DlqRequest => ({
  action: 'replay',
  limit: 50,
  json: false,
  dryRun: false,
  ...extra,
});

function letter(
  topic: string,
  offset: number,
  errorCode: string,
  failedAt: number,
  extra: Partial<DeadLetter> = {},
): DeadLetter {
  return {
    ...sampleMessages[Schemas.DeadLetter],
    topic,
    partition: 0,
    offset,
    key: Buffer.from(`host-${offset}.test`),
    value: Buffer.from(`original bytes ${offset}`),
    headers: { 'trace-id': `t-${offset}` },
    service: topic === Topics.frontier ? 'fetcher' : 'scheduler',
    errorCode,
    reason: `${errorCode} at ${offset}`,
    failedAt,
    ...extra,
  };
}

describe('crawler dlq on the in-process bus', () => {
  let bus: InProcessBus;
  const received: IncomingMessage[] = [];

  beforeEach(async () => {
    bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    received.length = 0;
    const reader = bus.consumer({
      groupId: 'fixed-service',
      topics: [Topics.frontier, Topics.status],
      fromBeginning: true,
    });
    await reader.start({ onMessage: async (message) => void received.push(message) });
  });
  afterEach(() => bus.close());

  /** Dead letters as services write them: keyed by the original key, on crawl.dlq. */
  async function deadLetter(...letters: DeadLetter[]): Promise<void> {
    await bus.producer().send(
      Topics.dlq,
      letters.map((value) => ({ key: value.key?.toString() ?? null, value: codec.encode(Schemas.DeadLetter, value) })),
    );
  }

  it('lists dead letters newest first with code, reason and whether they were replayed; filters by topic, code and age', async () => {
    await deadLetter(
      letter(Topics.frontier, 1, 'CODEC_BAD_HEADER', NOW - 3_600_000),
      letter(Topics.status, 2, 'CODEC_WRONG_SCHEMA', NOW - 60_000),
      letter(Topics.frontier, 3, 'INPUT_TOO_LARGE', NOW - 5_000),
    );

    const all = await runDlq(bus, list(), NOW);
    const lines = all.trim().split('\n');
    expect(lines[0]).toMatch(/^failed +topic +at +key +service +code +attempts +replayed +reason$/);
    expect(lines.slice(1, 4).map((line) => line.split(/ {2,}/)[0])).toEqual(['5s ago', '60s ago', '60m ago']);
    expect(lines[1]).toMatch(
      /crawl\.frontier +0:3 +host-3\.test +fetcher +INPUT_TOO_LARGE +1 +no +INPUT_TOO_LARGE at 3$/,
    );
    expect(lines.at(-1)).toBe('3 dead letters');

    expect(await runDlq(bus, list({ topics: [Topics.frontier], codes: ['CODEC_BAD_HEADER'] }), NOW)).toMatch(
      /^failed.*\n60m ago .*CODEC_BAD_HEADER.*\n1 dead letter\n$/,
    );
    expect(await runDlq(bus, list({ sinceMs: 120_000 }), NOW)).toMatch(/\n2 dead letters\n$/);
    expect(await runDlq(bus, list({ limit: 1 }), NOW)).toMatch(/\n2 more \(--limit\)\n3 dead letters\n$/);
    const json = (await runDlq(bus, list({ json: true, limit: 1 }), NOW))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(json).toEqual([
      expect.objectContaining({
        topic: Topics.frontier,
        offset: 3,
        errorCode: 'INPUT_TOO_LARGE',
        replayed: false,
        key: 'host-3.test',
        value: Buffer.from('original bytes 3').toString('base64'),
        valueTruncatedFrom: null,
      }),
    ]);
  });

  it('replays the original key, headers and bytes to the original topic once, however often it runs', async () => {
    await deadLetter(
      letter(Topics.frontier, 1, 'CODEC_BAD_HEADER', NOW),
      letter(Topics.status, 2, 'CODEC_WRONG_SCHEMA', NOW),
    );

    expect(await runDlq(bus, replay(), NOW)).toBe('replayed 2 dead letters (crawl.frontier 1, crawl.status 1)\n');
    await waitFor(() => received.length === 2);
    const frontier = received.find((message) => message.topic === Topics.frontier)!;
    expect(frontier.key?.toString()).toBe('host-1.test');
    expect(frontier.value.equals(Buffer.from('original bytes 1'))).toBe(true);
    expect(frontier.headers).toEqual({
      'trace-id': 't-1',
      'crawler-replay-of': expect.stringMatching(/^crawl\.dlq\/[0-2]\/0$/),
    });

    expect(await runDlq(bus, replay(), NOW)).toBe('replayed 0 dead letters\n2 replayed before: skipped\n');
    expect((await runDlq(bus, list(), NOW)).match(/ {2}yes {2}/g)).toHaveLength(2);

    // The replayed record failed again: a new dead letter, replayed by the next run.
    await deadLetter(letter(Topics.frontier, 1, 'CODEC_BAD_HEADER', NOW + 1000, { headers: frontier.headers }));
    expect(await runDlq(bus, replay(), NOW)).toBe(
      'replayed 1 dead letter (crawl.frontier 1)\n2 replayed before: skipped\n',
    );
    await waitFor(() => received.length === 3);
    expect(received.filter((message) => message.topic === Topics.status)).toHaveLength(1);
  });

  it('a replay narrowed to one topic or code leaves the others for a later replay, which sends them once', async () => {
    await deadLetter(
      letter(Topics.frontier, 1, 'CODEC_BAD_HEADER', NOW),
      letter(Topics.frontier, 2, 'INPUT_TOO_LARGE', NOW),
      letter(Topics.frontier, 3, 'CODEC_BAD_HEADER', NOW),
      letter(Topics.status, 4, 'CODEC_BAD_HEADER', NOW),
    );
    expect(await runDlq(bus, replay({ topics: [Topics.frontier], codes: ['CODEC_BAD_HEADER'] }), NOW)).toBe(
      'replayed 2 dead letters (crawl.frontier 2)\n',
    );
    expect(await runDlq(bus, replay(), NOW)).toBe(
      'replayed 2 dead letters (crawl.frontier 1, crawl.status 1)\n2 replayed before: skipped\n',
    );
    await waitFor(() => received.length === 4);
    expect(received.map((message) => message.value.toString()).sort()).toEqual([
      'original bytes 1',
      'original bytes 2',
      'original bytes 3',
      'original bytes 4',
    ]);
  });

  it('--dry-run lists what would be replayed and sends nothing; a value cut to fit crawl.dlq is never replayed', async () => {
    await deadLetter(
      letter(Topics.frontier, 1, 'CODEC_BAD_HEADER', NOW - 2000),
      letter(Topics.frontier, 2, 'INPUT_TOO_LARGE', NOW, { valueTruncatedFrom: 12_000_000 }),
    );

    const dry = await runDlq(bus, replay({ dryRun: true }), NOW);
    expect(dry).toMatch(
      /^failed +topic +at +key +service +code +attempts +reason\n2s ago +crawl\.frontier +0:1 +host-1\.test +fetcher +CODEC_BAD_HEADER +1 +CODEC_BAD_HEADER at 1\nwould replay 1 dead letter \(crawl\.frontier 1\)\n1 not replayable: value cut to fit crawl\.dlq/,
    );
    expect(await runDlq(bus, replay({ dryRun: true }), NOW)).toBe(dry);
    expect(received).toEqual([]);

    expect(await runDlq(bus, replay(), NOW)).toMatch(/^replayed 1 dead letter \(crawl\.frontier 1\)\n1 not replayable/);
    expect(await runDlq(bus, replay(), NOW)).toBe('replayed 0 dead letters\n2 replayed before: skipped\n');
    await waitFor(() => received.length === 1);
  });

  it('reads a prefixed crawl: prefixed topics and ledger groups, unprefixed names shown', async () => {
    const prefix = 'run-7.';
    const crawl = prefixTopics(bus, prefix);
    await crawl.createTopics(loadCatalog().topics);
    // A dead letter names its topic as the broker does.
    await crawl.producer().send(Topics.dlq, [
      {
        key: 'a.test',
        value: codec.encode(Schemas.DeadLetter, letter(prefix + Topics.frontier, 1, 'CODEC_BAD_HEADER', NOW)),
      },
    ]);
    expect(await runDlq(crawl, list({ topics: [Topics.frontier] }), NOW)).toMatch(/\n0s ago +crawl\.frontier +0:1 /);
    const replayed: IncomingMessage[] = [];
    const reader = bus.consumer({ groupId: 'fixed', topics: [prefix + Topics.frontier], fromBeginning: true });
    await reader.start({ onMessage: async (message) => void replayed.push(message) });
    expect(await runDlq(crawl, replay(), NOW)).toBe('replayed 1 dead letter (crawl.frontier 1)\n');
    await waitFor(() => replayed.length === 1);
    expect(replayed[0]!.headers['crawler-replay-of']).toMatch(/^run-7\.crawl\.dlq\/\d+\/0$/);
    expect(
      (await bus.lag(`${prefix}crawler-dlq-replay.crawl.frontier.CODEC_BAD_HEADER`, [prefix + Topics.dlq])).some(
        ({ committed }) => committed === 1,
      ),
    ).toBe(true);
  });
});

describe('crawler dlq command line', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    [['dlq'], /say list or replay/],
    [['dlq', 'purge'], /say list or replay/],
    [['dlq', 'list', '--topic', 'crawl.dlq'], /--topic crawl\.dlq is not a crawl topic/],
    [['dlq', 'replay', '--since', '1h'], /--since, --limit and --json are for list/],
    [['dlq', 'list', '--dry-run'], /--dry-run is for replay/],
    [['dlq', 'list', '--limit', '0'], /--limit must be a whole number >= 1/],
  ])('refuses %j before connecting', (argv, message) => {
    expect(() => parseDlqRequest(argv.slice(1))).toThrow(message);
  });

  it('has --help and is listed in the usage', async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
    expect(await runCli(['dlq', '--help'])).toBe(0);
    expect(await runCli(['--help'])).toBe(0);
    expect(out.join('')).toMatch(/^Usage: crawler dlq list \[options\]/);
    expect(out.join('')).toMatch(/\n {2}dlq +dead letters on crawl\.dlq/);
  });
});
