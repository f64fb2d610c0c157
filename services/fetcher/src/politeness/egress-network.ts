import { createSocket } from 'node:dgram';
import { isIPv6 } from 'node:net';

const MAX_CACHED = 10_000;

/**
 * The network a site sees our requests come from, as sites group visitors: the /24 of an IPv4
 * address, the /48 of an IPv6 one. By default the local address the kernel routes to the site
 * (a connected UDP socket sends nothing; its local address is the route's), cached per
 * destination; behind NAT or a proxy the configured network instead.
 */
export class EgressNetwork {
  private readonly cache = new Map<string, Promise<string>>();

  constructor(private readonly configured: string | null = null) {}

  of(destination: string): Promise<string> {
    if (this.configured) return Promise.resolve(this.configured);
    let network = this.cache.get(destination);
    if (!network) {
      network = routeSource(destination).then(networkOf, () => 'unknown');
      this.cache.set(destination, network);
      if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    }
    return network;
  }
}

/** The /24 (IPv4) or /48 (IPv6) an address belongs to, in CIDR notation; an IPv4-mapped IPv6 address counts as IPv4. */
export function networkOf(address: string): string {
  const v4 = /(\d+\.\d+\.\d+)\.\d+$/.exec(address);
  if (v4) return `${v4[1]}.0/24`;
  const head = address.split('::')[0]!;
  const groups = head ? head.split(':') : [];
  while (groups.length < 3) groups.push('0');
  return `${groups.slice(0, 3).join(':')}::/48`;
}

function routeSource(destination: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(isIPv6(destination) ? 'udp6' : 'udp4');
    socket.once('error', (error) => {
      socket.close();
      reject(error);
    });
    socket.connect(9, destination, () => {
      const { address } = socket.address();
      socket.close();
      resolve(address);
    });
  });
}
