import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { CrawlerError } from '@crawler/core';

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
      'BLOCKED_ADDRESS',
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
 */
export class AddressPolicy {
  private readonly blocked = new BlockList();
  private readonly allowed = new BlockList();
  private readonly cache = new Map<string, { addresses: Addresses; expiresAt: number }>();
  private readonly now: () => number;

  constructor(
    allow: string[] = [],
    private readonly resolver: Resolver = systemResolver,
    private readonly options: AddressPolicyOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    for (const range of BLOCKED_V4) addRange(this.blocked, range, 'ipv4');
    for (const range of BLOCKED_V6) addRange(this.blocked, range, 'ipv6');
    for (const entry of allow)
      addRange(
        this.allowed,
        entry.includes('/') ? entry : `${entry}/${isIP(entry) === 6 ? 128 : 32}`,
        isIP(entry.split('/')[0]!) === 6 ? 'ipv6' : 'ipv4',
      );
  }

  isBlocked(address: string): boolean {
    const family = isIP(address);
    if (family === 0) return true;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    const mapped = type === 'ipv6' ? embeddedIpv4(address) : null;
    if (mapped) return this.isBlocked(mapped);
    if (this.allowed.check(address, type)) return false;
    return this.blocked.check(address, type);
  }

  /** Resolves a hostname (or takes an IP literal) and returns the first admitted address. */
  async resolve(hostname: string): Promise<{ address: string; family: number }> {
    const bare = hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(bare)
      ? [{ address: bare, family: isIP(bare) }]
      : await this.lookupCached(bare.toLowerCase());
    const admitted = addresses.find((entry) => !this.isBlocked(entry.address));
    if (!admitted) throw new BlockedAddressError(hostname, addresses[0]?.address ?? 'nothing');
    return admitted;
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

  /** A `lookup` for net/tls connect options (what undici's connector passes through). */
  readonly lookup = (
    hostname: string,
    options: { all?: boolean },
    callback: (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void,
  ): void => {
    this.resolve(hostname).then(
      (entry) => (options?.all ? callback(null, [entry]) : callback(null, entry.address, entry.family)),
      (error: Error) => callback(error, ''),
    );
  };
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
