import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { BackendError, createLogger, silentLogger, type FingerprintStore } from '@crawler/core';
import { freePort } from '@crawler/core/free-port';
import { waitFor } from '@crawler/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRedisFingerprintStore } from './redis-fingerprint-store.js';
import { deleteKeysWithPrefix, localRedisConfig, localRedisUrl } from './testing/index.js';

const TIMEOUT_MS = 500;
const entry = { namespace: 'url', key: 'k', value: 'v', ttlMs: 60_000 };

/** Rejection of `call`, and how long it took to come. */
async function failure(call: () => Promise<unknown>): Promise<{ error: BackendError; ms: number }> {
  const started = Date.now();
  const error = await call().then(
    () => expect.unreachable('the call should have failed'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BackendError);
  return { error: error as BackendError, ms: Date.now() - started };
}

const stores: FingerprintStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

describe('redis unreachable', () => {
  it.each([
    // ioredis reports a cluster seed's refusal only as "Connection is closed."
    ['standalone', { REDIS_URL: 'redis://127.0.0.1:1' }, /ECONNREFUSED/],
    ['cluster', { REDIS_CLUSTER_NODES: '127.0.0.1:1,127.0.0.1:2' }, /Connection is closed/],
  ])('%s: every call fails with a retriable BackendError within the command timeout', async (_, env, reason) => {
    const store = createRedisFingerprintStore(
      localRedisConfig('standalone', { ...env, REDIS_COMMAND_TIMEOUT_MS: String(TIMEOUT_MS) }),
      silentLogger(),
    );
    stores.push(store);
    for (const call of [
      () => store.putIfAbsent([entry]),
      () => store.get('url', ['k']),
      () => store.members('band', ['b']),
    ]) {
      const { error, ms } = await failure(call);
      expect(error.retriable).toBe(true);
      expect(error.code).toBe('BACKEND_UNAVAILABLE');
      expect(error.message).toMatch(
        /^redis (putIfAbsent|get|members) failed: no connection to 127\.0\.0\.1:1.* within 500 ms; last error: /,
      );
      expect(error.message).toMatch(reason);
      expect(ms).toBeLessThan(TIMEOUT_MS + 1000);
    }
    // Many calls waiting at once share one set of listeners on the client.
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const many = await Promise.all(Array.from({ length: 50 }, () => failure(() => store.get('url', ['k']))));
    process.off('warning', onWarning);
    expect(many.every(({ error }) => error.retriable)).toBe(true);
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
    const closing = Date.now();
    await store.close();
    expect(Date.now() - closing).toBeLessThan(1000);
  });
});

/** A redis-server of our own on a free port, so it can be stopped without disturbing anyone. */
async function startOwnRedis(port: number): Promise<ChildProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-own-'));
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => output.includes('Ready to accept connections'));
  return server;
}

describe('redis stopped and started again', () => {
  it('fails fast while the server is down and works again once it is back', async () => {
    const port = await freePort();
    let server = await startOwnRedis(port);
    const store = createRedisFingerprintStore(
      localRedisConfig('standalone', {
        REDIS_URL: `redis://127.0.0.1:${port}`,
        REDIS_COMMAND_TIMEOUT_MS: String(TIMEOUT_MS),
      }),
      silentLogger(),
    );
    stores.push(store);
    try {
      expect(await store.putIfAbsent([entry])).toEqual([{ created: true, existing: null }]);
      server.kill('SIGKILL');
      await once(server, 'exit');
      const { error, ms } = await failure(() => store.putIfAbsent([entry]));
      expect(error.retriable).toBe(true);
      expect(ms).toBeLessThan(TIMEOUT_MS + 1000);
      server = await startOwnRedis(port);
      // The store reconnects by itself (back-off capped at 2 s); a fresh server has lost the key.
      await waitFor(() => store.putIfAbsent([entry]));
      expect(await store.get('url', ['k'])).toEqual(['v']);
    } finally {
      server.kill('SIGKILL');
    }
  });
});

describe('redis credentials', () => {
  /** Every line logged, and everything printed to the console, while `run` runs. */
  async function captured(run: (logger: ReturnType<typeof createLogger>) => Promise<void>): Promise<string> {
    const lines: string[] = [];
    const consoleSpies = (['log', 'warn', 'error'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args) => void lines.push(args.join(' '))),
    );
    try {
      await run(
        createLogger('redis-test', { level: 'trace', destination: { write: (line: string) => void lines.push(line) } }),
      );
    } finally {
      for (const spy of consoleSpies) spy.mockRestore();
    }
    return lines.join('\n');
  }

  it.each([
    ['a password in REDIS_URL', 'standalone', { REDIS_URL: localRedisUrl('user:secret') }, 'secret'],
    [
      'REDIS_USERNAME and REDIS_PASSWORD',
      'standalone',
      { REDIS_USERNAME: 'nobody', REDIS_PASSWORD: 'hunter2-pw' },
      'hunter2-pw',
    ],
    [
      'REDIS_PASSWORD on a cluster',
      'cluster',
      { REDIS_USERNAME: 'nobody', REDIS_PASSWORD: 'hunter2-pw' },
      'hunter2-pw',
    ],
  ] as const)(
    '%s: a rejected login is a non-retriable auth error that never shows the password',
    async (_, mode, env, password) => {
      const config = localRedisConfig(mode, { ...env, REDIS_COMMAND_TIMEOUT_MS: '2000' });
      let failed: { error: BackendError; ms: number } | undefined;
      const logs = await captured(async (logger) => {
        const store = createRedisFingerprintStore(config, logger);
        try {
          failed = await failure(() => store.putIfAbsent([entry]));
        } finally {
          await store.close();
        }
      });
      const { error, ms } = failed!;
      expect(error.message).toMatch(/^redis putIfAbsent failed: .*WRONGPASS/);
      expect(error.retriable).toBe(false);
      // A rejected password is not worth waiting for: the call fails as soon as the server says so.
      expect(ms).toBeLessThan(1500);
      for (const text of [
        error.message,
        inspect(error, { depth: Infinity, showHidden: true }),
        JSON.stringify(error),
        JSON.stringify(error.cause),
        logs,
      ]) {
        expect(text).not.toContain(password);
      }
      expect(logs).toContain('WRONGPASS');
    },
  );
});

describe('redis arguments', () => {
  it("refuses a namespace that could name another namespace's keys, before sending anything", async () => {
    const store = createRedisFingerprintStore(localRedisConfig('standalone'), silentLogger());
    stores.push(store);
    await expect(store.putIfAbsent([{ ...entry, namespace: 'bad:ns' }])).rejects.toMatchObject({
      code: 'FINGERPRINT_INVALID_ARGUMENT',
      retriable: false,
    });
  });
});

describe('redis cleanup helper', () => {
  it('deletes only keys under its own prefix', async () => {
    const config = localRedisConfig('cluster');
    const neighbour = localRedisConfig('cluster');
    const mine = createRedisFingerprintStore(config, silentLogger());
    const theirs = createRedisFingerprintStore(neighbour, silentLogger());
    stores.push(mine, theirs);
    const entries = Array.from({ length: 50 }, (_, i) => ({ ...entry, key: `k${i}` }));
    await mine.putIfAbsent(entries);
    await theirs.putIfAbsent(entries);
    expect(await deleteKeysWithPrefix(config)).toBe(50);
    expect((await mine.get('url', ['k0', 'k49'])).every((value) => value === null)).toBe(true);
    expect(await theirs.get('url', ['k0', 'k49'])).toEqual(['v', 'v']);
    expect(await deleteKeysWithPrefix(neighbour)).toBe(50);
  });
});
