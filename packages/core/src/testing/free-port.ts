import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Lowest port handed out: above the fixed ports of the local stack and most local daemons. */
const LOWEST_PORT = 20_000;
const handedOut = new Set<number>();

/**
 * A loopback port nothing listens on, below the kernel's ephemeral range: a port from listen(0)
 * comes from that range, where outgoing connections take their local ports too, and a CI run saw
 * one taken between this probe and the service's own listen (EADDRINUSE). A subpath export of its
 * own (`@crawler/core/free-port`), since the bench uses it too and `@crawler/core/testing` loads vitest.
 */
export async function freePort(): Promise<number> {
  const ceiling = ephemeralPortsFrom();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (ceiling - LOWEST_PORT));
    if (handedOut.has(port)) continue;
    // Taken before the probe, so concurrent callers never get the same port.
    handedOut.add(port);
    if (await canListen(port)) return port;
    handedOut.delete(port);
  }
  throw new Error(`no free port between ${LOWEST_PORT} and ${ceiling}`);
}

function ephemeralPortsFrom(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return low > LOWEST_PORT + 1000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
