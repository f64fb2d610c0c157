import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AddressPolicy, type Resolver } from './address-policy.js';
import { parseAllowEntry } from './address-allow-list.js';
import { createGuardedConnector } from './guarded-connector.js';

/** A resolver stub: no DNS query and no socket ever leaves the machine in these tests. */
const stub =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('AddressPolicy', () => {
  const policy = new AddressPolicy([], stub({}));

  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '2002:a9fe:a9fe::1',
    '2002:0a00:0001::',
    '::a9fe:a9fe',
    'fec0::1',
    '100.100.100.200',
    '192.0.0.192',
  ])('refuses %s by default', (address) => {
    expect(policy.isBlocked(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1', '::ffff:8.8.8.8', '2002:0808:0808::1'])(
    'admits public address %s',
    (address) => {
      expect(policy.isBlocked(address)).toBe(false);
    },
  );

  it('refuses names that resolve only to private or metadata addresses', async () => {
    const resolving = new AddressPolicy(
      [],
      stub({
        'metadata.google.internal': ['169.254.169.254'],
        'intranet.example': ['10.0.0.5', 'fd12::5'],
        'public.example': ['10.0.0.5', '93.184.216.34'],
      }),
    );
    await expect(resolving.resolve('metadata.google.internal')).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
    await expect(resolving.resolve('intranet.example')).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
    await expect(resolving.resolve('public.example')).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(resolving.resolve('[::1]')).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
  });

  it('asks the resolver once per name within the DNS cache time, and judges every answer', async () => {
    let now = 0;
    let calls = 0;
    const counting: Resolver = async (hostname) => {
      calls++;
      return [{ address: hostname === 'inside.example' ? '10.0.0.1' : '93.184.216.34', family: 4 }];
    };
    const cached = new AddressPolicy([], counting, { dnsCacheMs: 1000, now: () => now });
    await cached.resolve('www.example.org');
    await cached.resolve('WWW.example.org');
    expect(calls).toBe(1);
    now = 1001;
    await cached.resolve('www.example.org');
    expect(calls).toBe(2);
    await expect(cached.resolve('inside.example')).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
    await expect(cached.resolve('inside.example')).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
    expect(calls).toBe(3);
  });

  it('admits what the allow list names, and only that', async () => {
    const allowing = new AddressPolicy(['127.0.0.1', '10.9.0.0/16'], stub({}));
    expect(allowing.isBlocked('127.0.0.1')).toBe(false);
    expect(allowing.isBlocked('127.0.0.2')).toBe(true);
    expect(allowing.isBlocked('10.9.3.4')).toBe(false);
    expect(allowing.isBlocked('10.8.3.4')).toBe(true);
  });

  it('makes a real connection to a refused loopback server fail before any request is sent', async () => {
    let requests = 0;
    const server = createServer((_, response) => {
      requests++;
      response.end('should never be served');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const { Agent, request } = await import('undici');
    const guarded = new AddressPolicy([], stub({ 'local.test': ['127.0.0.1'] }));
    const agent = new Agent({ connect: createGuardedConnector(guarded, 1000) });
    await expect(request(`http://local.test:${port}/`, { dispatcher: agent })).rejects.toMatchObject({
      code: 'BLOCKED_ADDRESS',
    });
    expect(requests).toBe(0);
    await agent.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('admits one origin (address and port) when the entry names a port, and no other port', async () => {
    const origin = new AddressPolicy(['127.0.0.1:8080', '[::1]:8081'], stub({}));
    await expect(origin.resolve('127.0.0.1', 8080)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await expect(origin.resolve('127.0.0.1', 8081)).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
    await expect(origin.resolve('127.0.0.1')).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
    await expect(origin.resolve('[::1]', 8081)).resolves.toEqual({ address: '::1', family: 6 });
    await expect(origin.resolve('[::1]', 8080)).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
  });

  it('resolves host names of the allow list once, admits the addresses they had, and never trusts the name itself', async () => {
    let intranet = ['10.0.0.5'];
    let calls = 0;
    const resolver: Resolver = async (hostname) => {
      calls++;
      return stub({ 'intranet.example': intranet, localhost: ['127.0.0.1', '::1'] })(hostname);
    };
    const named = new AddressPolicy(['intranet.example', 'localhost:8080'], resolver);
    await expect(named.resolve('intranet.example', 80)).resolves.toEqual({ address: '10.0.0.5', family: 4 });
    await expect(named.resolve('10.0.0.5', 443)).resolves.toEqual({ address: '10.0.0.5', family: 4 });
    await expect(named.resolve('127.0.0.1', 8080)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await expect(named.resolve('[::1]', 8080)).resolves.toEqual({ address: '::1', family: 6 });
    await expect(named.resolve('127.0.0.1', 9090)).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
    // DNS rebinding: the name now points at the metadata address, which no entry admits.
    intranet = ['169.254.169.254'];
    await expect(named.resolve('intranet.example', 80)).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
    expect(calls).toBe(4); // two names at start, then the two lookups of intranet.example (no DNS cache here)
  });

  it('fails with the setting named when a host name of the allow list does not resolve', async () => {
    const broken = new AddressPolicy(['not-an-ip'], stub({}));
    await expect(broken.ready()).rejects.toMatchObject({
      code: 'CRAWLER_CONFIG_INVALID',
      message: expect.stringMatching(
        /^fetcher: invalid setting FETCHER_ALLOW_ADDRESSES: "not-an-ip" .*does not resolve/,
      ),
    });
    await expect(broken.resolve('93.184.216.34', 80)).rejects.toMatchObject({ code: 'CRAWLER_CONFIG_INVALID' });
  });

  it.each([
    ['0.0.0.0/0', /wider than \/8/],
    ['0.0.0.0/1', /wider than \/8/],
    ['::/0', /wider than \/7/],
    ['10.0.0.0/33', /prefix length must be 0-32/],
    ['127.0.0.1:0', /port must be 1-65535/],
    ['127.0.0.1:http', /port must be 1-65535/],
    ['1.2.3', /neither an IP address/],
    ['exa mple.org', /neither an IP address/],
    ['', /empty entry/],
  ])('refuses the allow-list entry %s, saying why', (entry, reason) => {
    const parsed = parseAllowEntry(entry);
    expect('problem' in parsed && parsed.problem).toMatch(reason);
    expect(() => new AddressPolicy([entry], stub({}))).toThrow(/FETCHER_ALLOW_ADDRESSES/);
  });

  it.each([
    ['10.0.0.0/8', { kind: 'range', network: '10.0.0.0', prefix: 8, port: null }],
    ['fc00::/7', { kind: 'range', network: 'fc00::', prefix: 7, port: null }],
    ['[::1]:8080', { kind: 'range', network: '::1', prefix: 128, port: 8080 }],
    ['127.0.0.1:18001', { kind: 'range', network: '127.0.0.1', prefix: 32, port: 18001 }],
    ['LocalHost:3000', { kind: 'name', name: 'localhost', port: 3000 }],
    ['not-an-ip', { kind: 'name', name: 'not-an-ip', port: null }],
  ])('reads the allow-list entry %s', (entry, expected) => {
    expect(parseAllowEntry(entry)).toMatchObject(expected);
  });

  it('connects through an admitted origin and refuses another port of the same address before any request', async () => {
    let requests = 0;
    const servers = [0, 1].map(() =>
      createServer((_, response) => {
        requests++;
        response.end('served');
      }),
    );
    for (const server of servers) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const [admittedPort, otherPort] = servers.map((server) => (server.address() as AddressInfo).port);
    const { Agent, request } = await import('undici');
    const guarded = new AddressPolicy([`localhost:${admittedPort}`], stub({ localhost: ['127.0.0.1'] }));
    const agent = new Agent({ connect: createGuardedConnector(guarded, 1000) });
    const admitted = await request(`http://localhost:${admittedPort}/`, { dispatcher: agent });
    expect(await admitted.body.text()).toBe('served');
    await expect(request(`http://localhost:${otherPort}/`, { dispatcher: agent })).rejects.toMatchObject({
      code: 'BLOCKED_ADDRESS',
    });
    expect(requests).toBe(1);
    await agent.close();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });
});
