import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { ConfigError, CrawlerError, errorMessage, ErrorCode } from '@crawler/core';
import { parseAllowEntry, type AllowEntry } from './address-allow-list.js';

/** Ranges no crawler should reach by default: private, loopback, link-local (cloud metadata), multicast, reserved. */
const BLOCKED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
];
const BLOCKED_V6 = [
  '::/128',
  '::1/128',
  '::/96',
  '100::/64',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
];

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

export class BlockedAddressError extends CrawlerError {
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(
      ErrorCode.BLOCKED_ADDRESS,
      `${hostname} resolves to ${address}, which the address policy refuses (private, loopback, link-local or reserved)`,
    );
  }
}

export interface AddressPolicyOptions {
  /** How long resolved addresses are reused (0: every lookup asks the resolver). */
  dnsCacheMs?: number;
  /** Most host names kept in the DNS cache. */
  dnsCacheEntries?: number;
  now?: () => number;
}

type Addresses = { address: string; family: number }[];

/**
 * The SSRF guard: a host is reachable only through an address outside the blocked ranges, unless
 * an allow-list entry admits it. Checked on the resolved IP, inside the connection's DNS lookup,
 * so every redirect hop and every reconnect is checked too. Resolved addresses are cached briefly:
 * the IP politeness key and the connection then agree on the server, and DNS is asked less often.
 *
 * Allow-list entries are addresses, CIDR ranges or host names, each with an optional port that
 * narrows it to one origin. A name is resolved once, before the first check (`ready`), and admits
 * the addresses it had then; the name itself is never trusted, so a name that later resolves
 * elsewhere (DNS rebinding) is judged by its new address like any other.
 */
export class AddressPolicy {
  private readonly blocked = new BlockList();
  /** Admitted ranges: `any` for entries without a port, else one list per port. */
  private readonly allowed = new Map<number | 'any', BlockList>();
  private readonly names: Extract<AllowEntry, { kind: 'name' }>[] = [];
  private readonly cache = new Map<string, { addresses: Addresses; expiresAt: number }>();
  private readonly now: () => number;
  private namesResolved: Promise<void> | null = null;

  constructor(
    allow: readonly string[] = [],
    private readonly resolver: Resolver = systemResolver,
    private readonly options: AddressPolicyOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    for (const range of BLOCKED_V4) addRange(this.blocked, range, 'ipv4');
    for (const range of BLOCKED_V6) addRange(this.blocked, range, 'ipv6');
    for (const text of allow) {
      const entry = parseAllowEntry(text);
      if ('problem' in entry)
        throw new ConfigError(`fetcher: invalid setting FETCHER_ALLOW_ADDRESSES: ${entry.problem}`);
      if (entry.kind === 'name') this.names.push(entry);
      else this.allowedFor(entry.port).addSubnet(entry.network, entry.prefix, entry.family);
    }
  }

  /**
   * Resolves the allow-list's host names (once; every check waits for it). A name that does not
   * resolve is a configuration error: the operator named a host this machine cannot find.
   */
  ready(): Promise<void> {
    this.namesResolved ??= (async () => {
      for (const entry of this.names) {
        let addresses: Addresses;
        try {
          addresses = await this.resolver(entry.name);
        } catch (error) {
          throw new ConfigError(
            `fetcher: invalid setting FETCHER_ALLOW_ADDRESSES: "${entry.text}" is not an IP address or CIDR range, and as a host name it does not resolve (${errorMessage(error)})`,
          );
        }
        for (const { address } of addresses)
          this.allowedFor(entry.port).addAddress(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
      }
    })();
    return this.namesResolved;
  }

  /** Whether a connection to `address` (on `port`, when known) is refused. */
  isBlocked(address: string, port?: number): boolean {
    const family = isIP(address);
    if (family === 0) return true;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    const mapped = type === 'ipv6' ? embeddedIpv4(address) : null;
    if (mapped) return this.isBlocked(mapped, port);
    if (this.allowed.get('any')?.check(address, type)) return false;
    if (port !== undefined && this.allowed.get(port)?.check(address, type)) return false;
    return this.blocked.check(address, type);
  }

  /**
   * Resolves a hostname (or takes an IP literal) and returns the first admitted address. Without
   * a port, entries narrowed to one port admit nothing.
   */
  async resolve(hostname: string, port?: number): Promise<{ address: string; family: number }> {
    await this.ready();
    const bare = hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(bare)
      ? [{ address: bare, family: isIP(bare) }]
      : await this.lookupCached(bare.toLowerCase());
    const admitted = addresses.find((entry) => !this.isBlocked(entry.address, port));
    if (!admitted) throw new BlockedAddressError(hostname, addresses[0]?.address ?? 'nothing');
    return admitted;
  }

  private allowedFor(port: number | null): BlockList {
    const key = port ?? 'any';
    let list = this.allowed.get(key);
    if (!list) this.allowed.set(key, (list = new BlockList()));
    return list;
  }

  private async lookupCached(hostname: string): Promise<Addresses> {
    const ttl = this.options.dnsCacheMs ?? 0;
    const cached = this.cache.get(hostname);
    if (cached && cached.expiresAt > this.now()) return cached.addresses;
    const addresses = await this.resolver(hostname);
    if (ttl > 0) {
      this.cache.delete(hostname);
      this.cache.set(hostname, { addresses, expiresAt: this.now() + ttl });
      if (this.cache.size > (this.options.dnsCacheEntries ?? 10_000))
        this.cache.delete(this.cache.keys().next().value as string);
    }
    return addresses;
  }

  /** A `lookup` for net/tls connect options, judging addresses for connections to `port`. */
  lookupFor(port: number) {
    return (
      hostname: string,
      options: { all?: boolean },
      callback: (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void,
    ): void => {
      this.resolve(hostname, port).then(
        (entry) => (options?.all ? callback(null, [entry]) : callback(null, entry.address, entry.family)),
        (error: Error) => callback(error, ''),
      );
    };
  }
}

/** The port a URL's connection goes to (`url.port` is empty for the scheme's default). */
export function effectivePort(protocol: string, port: string): number {
  return Number(port) || (protocol === 'https:' ? 443 : 80);
}

function addRange(list: BlockList, cidr: string, type: 'ipv4' | 'ipv6'): void {
  const [network, prefix] = cidr.split('/');
  list.addSubnet(network!, Number(prefix), type);
}

/** IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::) addresses are judged by their IPv4 part. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const sixToFour = lower.match(/^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/);
  if (sixToFour) return fromHex(sixToFour[1]!, sixToFour[2]!);
  const dotted = lower.match(/^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) return dotted[1]!;
  const hex = lower.match(/^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  return hex ? fromHex(hex[1]!, hex[2]!) : null;
}

function fromHex(highHex: string, lowHex: string): string {
  const high = Number.parseInt(highHex, 16);
  const low = Number.parseInt(lowHex, 16);
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}
