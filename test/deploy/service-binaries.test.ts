import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The four built service binaries as an operator meets them: --help answers without starting
 * anything, and a bad setting fails fast, before the health port is taken or any backend is dialled.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

// One validated setting of each service, and a value its schema refuses.
const services = {
  scheduler: { setting: 'SCHEDULER_LEASE_MS', bad: 'abc' },
  fetcher: { setting: 'FETCHER_MAX_BODY_BYTES', bad: 'abc' },
  linkextract: { setting: 'LINKEXTRACT_MAX_LINKS', bad: '0' },
  dedup: { setting: 'DEDUP_NEAR_DISTANCE', bad: '99' },
} as const;
const names = Object.keys(services) as (keyof typeof services)[];

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runBinary(service: string, args: string[], env: NodeJS.ProcessEnv): Promise<Exit> {
  return new Promise((resolve) => {
    // Only PATH from the caller: a shell that sourced the stack's env must not change the outcome.
    execFile(
      process.execPath,
      [join(root, 'services', service, 'dist', 'main.js'), ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 10_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

describe('service binaries', () => {
  // Every backend address points here, so a connection made before the settings are checked is seen.
  const dialled: string[] = [];
  const backends = createServer((socket) => {
    dialled.push(`${socket.remoteAddress}:${socket.remotePort}`);
    socket.destroy();
  });
  // Held open as the health port: a runner that listened before checking would exit 1 (EADDRINUSE), not 2.
  const taken = createServer();
  let backendEnv: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    for (const service of names) {
      if (!existsSync(join(root, 'services', service, 'dist', 'main.js')))
        throw new Error(`services/${service}/dist/main.js is missing: run npm run build first`);
    }
    const port = await listen(backends);
    const healthPort = await listen(taken);
    backendEnv = {
      KAFKA_BROKERS: `127.0.0.1:${port}`,
      ELASTICSEARCH_URL: `http://127.0.0.1:${port}`,
      REDIS_URL: `redis://127.0.0.1:${port}`,
      HBASE_REST_URL: `http://127.0.0.1:${port}`,
      CRAWLER_HEALTH_HOST: '127.0.0.1',
      CRAWLER_HEALTH_PORT: String(healthPort),
    };
  });
  afterAll(async () => {
    await new Promise((resolve) => backends.close(resolve));
    await new Promise((resolve) => taken.close(resolve));
  });

  it.each(names)('%s --help prints its usage, topics and settings, and exits 0', async (service) => {
    const result = await runBinary(service, ['--help'], backendEnv);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Usage: crawler-${service}`);
    expect(result.stdout).toContain(services[service].setting);
    expect(result.stdout).toMatch(/Consumes crawl\.\w+/);
    expect(result.stdout).toContain('CRAWLER_CONFIG');
    expect(result.stdout).toContain('KAFKA_BROKERS');
    expect(result.stderr).toBe('');
    expect(dialled).toEqual([]);
  });

  // main.ts names the adapters' setting groups for --help and the start-up check; compose-<service>.ts creates the ports.
  it.each(names)('%s checks the settings of exactly the ports its composition root creates', (service) => {
    const read = (file: string) => readFileSync(join(root, 'services', service, 'src', file), 'utf8');
    const created = /import\s*\{([^}]*)\}\s*from\s*'@crawler\/adapters'/
      .exec(read(`compose-${service}.ts`))![1]!
      .split(',')
      .map((name) => name.trim());
    const ports = {
      createBus: 'bus',
      createServiceBus: 'bus',
      createLinkBase: 'linkbase',
      createFingerprintStore: 'fingerprints',
      createPageStore: 'pageStore',
    } as Record<string, string>;
    const listed = /portSettings\(\[([^\]]*)\]\)/
      .exec(read('main.ts'))![1]!
      .split(',')
      .map((name) => name.trim().replace(/'/g, ''));
    expect(listed.sort()).toEqual(
      created
        .filter((name) => name in ports)
        .map((name) => ports[name])
        .sort(),
    );
  });

  it.each(names)('%s refuses an unknown argument with one line and exit code 2', async (service) => {
    const result = await runBinary(service, ['--frobnicate'], backendEnv);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('unknown argument "--frobnicate"')]);
    expect(dialled).toEqual([]);
  });

  it.each(names)('%s exits 2 naming a bad setting, before it listens or connects', async (service) => {
    const { setting, bad } = services[service];
    const result = await runBinary(service, [], { ...backendEnv, [setting]: bad });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`invalid setting ${setting}`);
    expect(dialled).toEqual([]);
  });

  it.each([
    ['linkextract', 'KAFKA_BROKERS', 'no-port'],
    ['scheduler', 'ELASTICSEARCH_URL', 'es:9200'],
    ['fetcher', 'REDIS_URL', 'localhost:6379'],
    ['dedup', 'HBASE_TABLE', 'bad table'],
  ])(
    '%s exits 2 naming a bad %s of an adapter it uses, before connecting to any other',
    async (service, setting, bad) => {
      const result = await runBinary(service, [], { ...backendEnv, [setting]: bad });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(setting);
      expect(dialled).toEqual([]);
    },
  );

  it('dedup with the default HBASE_REST_URL and health port says they collide, instead of querying itself', async () => {
    const { HBASE_REST_URL: _unused, CRAWLER_HEALTH_HOST: _host, CRAWLER_HEALTH_PORT: _port, ...env } = backendEnv;
    const result = await runBinary('dedup', [], env);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /HBASE_REST_URL points at port 8080 of this machine, where this service's own health server listens \(CRAWLER_HEALTH_PORT=8080\)/,
    );
    expect(dialled).toEqual([]);
  });
});
