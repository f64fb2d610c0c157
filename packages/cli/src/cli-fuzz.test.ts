import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Setting } from '@crawler/core';
import { randomText, seededRandom } from '@crawler/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { commands, runCli } from './cli.js';
import { settingGroups } from './setting-groups.js';
import { capture } from './test-support/capture-output.js';

/**
 * Every command and subcommand of the command table, driven with command lines that would do real
 * work but for one bad thing: an unknown flag, a flag without its value, a value for a switch, a
 * value wrong for its flag, a bad setting or a bad config file. Each must end with exit code 2,
 * one line on stderr, nothing on stdout, before it connects anywhere or creates its output folder.
 */

type Kind =
  | 'count'
  | 'duration'
  | 'url'
  | 'file'
  | 'json-file'
  | 'seeds-file'
  | 'token-file'
  | 'robots'
  | 'out'
  | 'warc-out'
  | 'crawl-out'
  | 'output-file'
  | 'user-agent'
  | 'address'
  | 'media-type'
  | 'charset'
  | 'scope'
  | 'from'
  | 'crawl-topic'
  | 'crawl-group'
  | 'filter'
  | 'share'
  | 'time'
  /** Any text is a valid value (an ETag, a host, a CSS selector): only its absence can be wrong. */
  | 'free';

/** What each string flag takes. A flag that is not here fails the test: say what it takes. */
const KINDS: Record<string, Kind> = {
  seed: 'url',
  'seeds-file': 'seeds-file',
  job: 'json-file',
  'max-pages': 'count',
  'max-depth': 'count',
  'max-time': 'duration',
  'clock-offset': 'duration',
  scope: 'scope',
  concurrency: 'count',
  'per-host': 'count',
  'delay-ms': 'count',
  'user-agent': 'user-agent',
  'allow-address': 'address',
  out: 'out',
  hosts: 'count',
  'pages-per-host': 'count',
  robots: 'robots',
  agent: 'free',
  'max-redirects': 'count',
  etag: 'free',
  'last-modified': 'free',
  'content-type': 'media-type',
  base: 'url',
  charset: 'charset',
  k: 'count',
  resemblance: 'share',
  'url-a': 'url',
  'url-b': 'url',
  admin: 'url',
  'token-file': 'token-file',
  file: 'seeds-file',
  group: 'free',
  topic: 'crawl-topic',
  from: 'from',
  filter: 'filter',
  max: 'count',
  'field-limit': 'count',
  rules: 'json-file',
  scrolls: 'count',
  click: 'free',
  html: 'output-file',
  interval: 'duration',
  'stall-after': 'duration',
  host: 'free',
  site: 'free',
  class: 'free',
  since: 'duration',
  limit: 'count',
  code: 'free',
  start: 'time',
  end: 'time',
};
/** Where one command reads a flag of the same name differently. */
const KIND_OF_COMMAND: Record<string, Kind> = {
  'demo --seed': 'count',
  'page get --out': 'warc-out',
  'status --out': 'crawl-out',
  'errors --out': 'crawl-out',
  'footprint --out': 'crawl-out',
  'lag --group': 'crawl-group',
  'lag --topic': 'free',
  'export wacz --job': 'free',
  'export warc --job': 'free',
  'status --job': 'free',
};

/** The bound on one command line: one that is refused takes milliseconds. */
const CASE_MS = 10_000;
/** Command lines per command beyond one per kind of bad input and one per flag that can take a bad value. */
const EXTRA_CASES = 6;
/** Every command's flags, by command and subcommand, from its module. */
const flagsOf = Object.fromEntries(
  await Promise.all(
    Object.entries(commands).map(async ([name, command]) => [name, (await command.load()).flags] as const),
  ),
);

describe('crawler command line fuzz', () => {
  const dialled: string[] = [];
  let listener: Server;
  let site: string;
  let fixtures: Record<string, string>;
  let env: Record<string, string>;

  beforeAll(async () => {
    // Every server the commands may reach is this one: a connection means work began before the input was checked.
    listener = createServer((socket) => {
      dialled.push(String(socket.remotePort));
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;
    site = `http://127.0.0.1:${port}`;
    const dir = mkdtempSync(join(tmpdir(), 'cli-fuzz-'));
    const file = (name: string, content: string) => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    };
    mkdirSync(join(dir, 'a-folder'));
    mkdirSync(join(dir, 'user-folder'));
    writeFileSync(join(dir, 'user-folder', 'notes.txt'), 'precious');
    fixtures = {
      dir,
      page: file('page.html', '<!DOCTYPE html><title>Page</title><p>Text of the page.</p>'),
      job: file('job.json', JSON.stringify({ id: 'fuzz', seeds: ['http://a.test/'] })),
      token: file('token', 'a-token-of-some-length'),
      missing: join(dir, 'missing', 'nothing-here'),
      folder: join(dir, 'a-folder'),
      userFolder: join(dir, 'user-folder'),
      aFile: file('a-file', 'just a file'),
      underAFile: join(dir, 'a-file', 'below'),
      garbage: file('garbage.json', '{ this is not JSON'),
      unknownKeyJob: file('unknown-key.json', JSON.stringify({ seeds: ['http://a.test/'], maxPagez: 3 })),
      empty: file('empty', ''),
      badSeeds: file('bad-seeds.txt', 'http://a.test/\nnot a url at all\n'),
      crawl: join(dir, 'crawl'),
    };
    // A crawl's output folder as crawler export reads it.
    mkdirSync(join(dir, 'crawl', 'warc'), { recursive: true });
    writeFileSync(join(dir, 'crawl', 'warc', 'pages-00000.warc.gz'), '');
    env = {
      KAFKA_BROKERS: `127.0.0.1:${port}`,
      ELASTICSEARCH_URL: site,
      REDIS_URL: `redis://127.0.0.1:${port}`,
      HBASE_REST_URL: site,
      SCHEDULER_ADMIN_URL: site,
      CRAWLER_DATA_DIR: join(dir, 'data'),
    };
  });
  afterAll(() => new Promise((resolve) => listener.close(resolve)));
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  /** A command line that does real work (fetches, connects, writes --out) unless something in it is refused. */
  function baseline(path: string, out: string): string[] {
    const lines: Record<string, string[]> = {
      run: ['--seed', `${site}/`, '--quiet', '--out', out],
      demo: ['--quiet', '--out', out],
      'check robots': [`${site}/page`],
      'check fetch': [`${site}/page`],
      'check url': ['http://a.test/page'],
      'check parse': [`${site}/page`],
      'check similar': [`${site}/a`, `${site}/b`],
      'admin jobs': ['--token-file', fixtures.token!],
      'admin stats': ['--token-file', fixtures.token!],
      'admin add-job': ['--token-file', fixtures.token!, fixtures.job!],
      'admin add-seeds': ['--token-file', fixtures.token!, 'fuzz', 'http://a.test/'],
      'admin pause-job': ['--token-file', fixtures.token!, 'fuzz'],
      'admin resume-job': ['--token-file', fixtures.token!, 'fuzz'],
      'admin pause-host': ['--token-file', fixtures.token!, 'a.test'],
      'admin resume-host': ['--token-file', fixtures.token!, 'a.test'],
      'admin url': ['--token-file', fixtures.token!, 'http://a.test/'],
      lag: [],
      tap: ['crawl.pages', '--max', '1'],
      render: [`${site}/page`],
      status: ['--once'],
      errors: [],
      footprint: [],
      'dlq list': [],
      'dlq replay': ['--dry-run'],
      'page get': ['http://a.test/page'],
      'export wacz': [fixtures.crawl!, out],
      'export warc': ['--from-stack', out],
    };
    const line = lines[path];
    if (!line) throw new Error(`no baseline command line for "crawler ${path}": add one that would do real work`);
    return line;
  }

  function badValues(kind: Kind): string[] {
    const f = fixtures;
    const values: Record<Kind, string[]> = {
      count: ['abc', '1.5', '', '12abc', '0x10', ' 7', '-3', '1e3'],
      duration: ['soon', '', '5 parsecs', '-5s', 'h'],
      url: ['not a url', 'ftp://x.test/', 'http://', 'javascript:alert(1)', 'http://[::1'],
      file: [f.missing!, f.folder!],
      'json-file': [f.missing!, f.folder!, f.garbage!, f.unknownKeyJob!],
      'seeds-file': [f.missing!, f.folder!, f.badSeeds!],
      'token-file': [f.missing!, f.folder!, f.empty!],
      robots: [f.missing!, f.folder!],
      out: [f.aFile!, f.underAFile!, f.userFolder!],
      'warc-out': [f.aFile!, f.folder!, f.missing!],
      'crawl-out': [f.aFile!, f.folder!, f.missing!],
      'output-file': [f.folder!, join(f.missing!, 'out.html')],
      'user-agent': ['curl/8.0', '123', 'bot without a contact'],
      // Only forms refused without a DNS lookup: a name would be resolved.
      address: ['0.0.0.0/0', '10.0.0.0/99', '127.0.0.1:99999', '::/0'],
      'media-type': ['notatype', 'text/', '/html', 'a b/c'],
      charset: ['no-such-charset', 'utf-9'],
      scope: ['galaxy', ''],
      from: ['yesterday', ''],
      'crawl-topic': ['no.such.topic'],
      'crawl-group': ['no-such-group'],
      filter: ['nofield', '=x'],
      share: ['abc', '', '0', '-0.5', '1.5', '0x1', '0.5x'],
      time: ['yesterday', '', '2026-13-01', '2026-11-01T25:00', '1700000000'],
      free: [],
    };
    return values[kind];
  }

  /** The settings with a value their schema refuses, and that value. */
  function badSettings(): { env: string; value: string }[] {
    const candidates = ['abc', '-1', 'maybe', '{', '99999999999', 'x'];
    const found: { env: string; value: string }[] = [];
    for (const [section, , spec] of settingGroups)
      for (const item of Object.values(spec) as Setting[]) {
        const value = candidates.find((candidate) => {
          try {
            loadConfig(section, { item }, { env: { [item.env]: candidate } });
            return false;
          } catch {
            return true;
          }
        });
        if (value !== undefined) found.push({ env: item.env, value });
      }
    return found;
  }

  interface Case {
    what: string;
    argv: string[];
    env: Record<string, string>;
    out: string;
  }

  /** Bad command lines for one command path, the same ones for the same seed: every flag that can be given a bad value gets one. */
  function casesFor(path: string, random: () => number): Case[] {
    const [name, sub] = path.split(' ') as [string, string | undefined];
    const flags = flagsOf[name]![sub ?? '']!;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const stringFlags = Object.keys(flags).filter((flag) => flags[flag]!.type === 'string');
    const switches = Object.keys(flags).filter((flag) => flags[flag]!.type === 'boolean');
    const kindOf = (flag: string): Kind => {
      const kind = KIND_OF_COMMAND[`${path} --${flag}`] ?? KINDS[flag];
      if (!kind) throw new Error(`crawler ${path} --${flag}: say in KINDS what it takes`);
      return kind;
    };
    const valued = stringFlags.filter((flag) => badValues(kindOf(flag)).length > 0);
    let valuedTurn = 0;
    const settings = badSettings();
    const configs = [
      fixtures.missing!,
      fixtures.folder!,
      fixtures.garbage!,
      join(fixtures.dir!, 'config-unknown.json'),
      join(fixtures.dir!, 'config-array.json'),
      join(fixtures.dir!, 'config-bad-value.json'),
    ];
    writeFileSync(configs[3]!, JSON.stringify({ fetcher: { concurrencyy: 3 } }));
    writeFileSync(configs[4]!, '[1, 2]');
    writeFileSync(configs[5]!, JSON.stringify({ scheduler: { leaseMs: 'long' } }));
    type Maker = () => Omit<Case, 'out'>;
    // Each flag that can take a bad value gets one in turn.
    const badValue: Maker = () => {
      const flag = valued[valuedTurn++ % valued.length]!;
      return { what: `a bad --${flag}`, argv: [`--${flag}=${pick(badValues(kindOf(flag)))}`], env: {} };
    };
    const makers: Maker[] = [
      () => ({ what: 'an unknown flag', argv: [`--${randomText(random, 'abcdefghijklmnopqrstuvwxyz', 8)}`], env: {} }),
      () => ({ what: 'an unknown flag with a value', argv: [`--x-${randomText(random, 'qwxz', 5)}=1`], env: {} }),
      ...(stringFlags.length > 0
        ? [() => ({ what: 'a flag without its value', argv: [`--${pick(stringFlags)}`], env: {} })]
        : []),
      ...(switches.length > 0
        ? [() => ({ what: 'a value for a switch', argv: [`--${pick(switches)}=${pick(['yes', '1', 'no'])}`], env: {} })]
        : []),
      ...(valued.length > 0 ? [badValue] : []),
      () => {
        const setting = pick(settings);
        return { what: `a bad ${setting.env}`, argv: [], env: { [setting.env]: setting.value } };
      },
      () => ({ what: 'a bad CRAWLER_CONFIG', argv: [], env: { CRAWLER_CONFIG: pick(configs) } }),
    ];
    // Every kind of bad input once, a bad value for every flag that can have one, then at random.
    const plan = [...makers, ...valued.slice(1).map(() => badValue)];
    return Array.from({ length: plan.length + EXTRA_CASES }, (_, index) => {
      const out = join(fixtures.dir!, `out-${path.replace(' ', '-')}-${index}`);
      const made = (plan[index] ?? pick(makers))();
      // A flag the baseline sets itself is replaced, not given twice (the last would win).
      const given = made.argv[0]?.match(/^(--[^=]+)=/)?.[1];
      const line = baseline(path, out).filter(
        (arg, i, all) => given === undefined || (arg !== given && all[i - 1] !== given),
      );
      const at = Math.floor(random() * (line.length + 1));
      // The bad flag goes anywhere among the others; a flag without its value only works last.
      const argv =
        made.what === 'a flag without its value'
          ? [...line, ...made.argv]
          : [...line.slice(0, at), ...made.argv, ...line.slice(at)];
      return { what: made.what, argv: [name, ...(sub ? [sub] : []), ...argv], env: made.env, out };
    });
  }

  const paths = Object.entries(flagsOf).flatMap(([name, flags]) =>
    Object.keys(flags).map((sub) => (sub ? `${name} ${sub}` : name)),
  );

  it('covers every command of the command table', () => {
    expect(paths.length).toBeGreaterThanOrEqual(20);
    expect(paths).toEqual(
      expect.arrayContaining(['run', 'demo', 'check fetch', 'admin stats', 'dlq replay', 'page get']),
    );
  });

  it.each(paths)(
    'crawler %s: each bad command line is one line on stderr and exit 2, before any work',
    async (path) => {
      const random = seededRandom([...path].reduce((sum, char) => sum * 31 + char.charCodeAt(0), 7));
      for (const fuzz of casesFor(path, random)) {
        for (const [key, value] of Object.entries({ ...env, ...fuzz.env })) vi.stubEnv(key, value);
        const io = capture();
        const before = dialled.length;
        let timer: NodeJS.Timeout | undefined;
        const code = await Promise.race([
          runCli(fuzz.argv),
          new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still running'), CASE_MS))),
        ]);
        clearTimeout(timer);
        vi.restoreAllMocks();
        vi.unstubAllEnvs();
        const said = `${fuzz.what}: crawler ${fuzz.argv.slice(0).join(' ')} ${JSON.stringify(fuzz.env)}\nstderr: ${io.err()}`;
        expect(code, said).toBe(2);
        expect(io.err(), said).toMatch(/^[^\n]+\n$/);
        expect(io.err(), said).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
        expect(io.out(), said).toBe('');
        expect(dialled.length, `${said}\nit connected before refusing`).toBe(before);
        expect(existsSync(fuzz.out), `${said}\nit created --out before refusing`).toBe(false);
      }
    },
  );

  // Without the bad input the same lines are accepted, so the fuzz above tests the checks, not a missing argument.
  // (The Kafka and link base commands are left out: reaching no broker takes them 10 s or more.)
  it.each(['run', 'check robots', 'check fetch', 'check url', 'check parse', 'check similar', 'admin stats', 'render'])(
    'crawler %s: the baseline command line passes every check',
    async (path) => {
      const [name, sub] = path.split(' ') as [string, string | undefined];
      for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
      const out = join(fixtures.dir!, `out-baseline-${path.replace(' ', '-')}`);
      const io = capture();
      const code = await runCli([name, ...(sub ? [sub] : []), ...baseline(path, out)]);
      expect(code, io.err()).not.toBe(2);
    },
  );

  it('real processes: exit code 2 and a single line on stderr', async () => {
    const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
    if (!existsSync(main)) throw new Error('packages/cli/dist/main.js is missing: run npm run build first');
    const random = seededRandom(2024);
    const picked = ['run', 'check fetch', 'admin stats', 'tap'].map((path) => {
      const cases = casesFor(path, random);
      return cases[Math.floor(random() * cases.length)]!;
    });
    for (const fuzz of picked) {
      const child = spawn(process.execPath, [main, ...fuzz.argv], { env: { ...process.env, ...env, ...fuzz.env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), CASE_MS);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      clearTimeout(timer);
      const said = `${fuzz.what}: crawler ${fuzz.argv.join(' ')}\nstderr: ${stderr}`;
      expect(code, said).toBe(2);
      expect(stderr, said).toMatch(/^[^\n]+\n$/);
      expect(stdout, said).toBe('');
    }
  }, 60_000);
});
