import { isIP } from 'node:net';

/**
 * One entry of FETCHER_ALLOW_ADDRESSES (`--allow-address`): an address or CIDR range, or a host
 * name, each optionally with a port that narrows it to one origin (`127.0.0.1:8080`,
 * `[::1]:8080`, `localhost:8080`).
 */
export type AllowEntry =
  | { kind: 'range'; text: string; network: string; prefix: number; family: 'ipv4' | 'ipv6'; port: number | null }
  | { kind: 'name'; text: string; name: string; port: number | null };

/**
 * Widest ranges an entry may span: a /8 is the widest private IPv4 block (10/8, 127/8), fc00::/7
 * the widest private IPv6 one. Anything wider admits public and private space alike, which
 * switches the SSRF guard off without a word, so it is refused.
 */
const WIDEST_PREFIX = { ipv4: 8, ipv6: 7 } as const;

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

/** Parses one entry, or says in a sentence why it is not one. */
export function parseAllowEntry(raw: string): AllowEntry | { problem: string } {
  const text = raw.trim();
  if (!text) return { problem: 'an empty entry' };
  const { host, port, problem } = splitPort(text);
  if (problem) return { problem: `"${text}": ${problem}` };
  const [network, prefixText, extra] = host.split('/');
  const family = isIP(network!);
  if (family !== 0) {
    if (extra !== undefined) return { problem: `"${text}" is not an address or CIDR range` };
    const bits = family === 6 ? 128 : 32;
    const prefix = prefixText === undefined ? bits : Number(prefixText);
    if (!/^\d{1,3}$/.test(prefixText ?? String(bits)) || prefix > bits)
      return { problem: `"${text}": the prefix length must be 0-${bits}` };
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix < WIDEST_PREFIX[type])
      return {
        problem: `"${text}" would admit ${type === 'ipv4' ? 'IPv4' : 'IPv6'} space wider than /${WIDEST_PREFIX[type]}, public and private alike, which turns the address policy off; name the private ranges you need (e.g. 10.0.0.0/8, 192.168.0.0/16)`,
      };
    return { kind: 'range', text, network: network!, prefix, family: type, port };
  }
  if (prefixText !== undefined || !HOST_NAME.test(host) || /^[\d.]+$/.test(host))
    return { problem: `"${text}" is neither an IP address, a CIDR range nor a host name` };
  return { kind: 'name', text, name: host.toLowerCase().replace(/\.$/, ''), port };
}

/** Why the list cannot be used (the first bad entry), or null: for the settings' schema. */
export function allowListProblem(entries: readonly string[]): string | null {
  for (const entry of entries) {
    const parsed = parseAllowEntry(entry);
    if ('problem' in parsed) return parsed.problem;
  }
  return null;
}

/** `[v6]:port`, `v4:port` and `name:port`; a bare IPv6 address has colons but no port. */
function splitPort(text: string): { host: string; port: number | null; problem?: string } {
  const bracketed = text.match(/^\[([^\]]+)\](?::(.*))?$/);
  if (bracketed) return withPort(bracketed[1]!, bracketed[2]);
  const colons = text.split(':').length - 1;
  if (colons !== 1) return { host: text, port: null };
  const at = text.lastIndexOf(':');
  return withPort(text.slice(0, at), text.slice(at + 1));
}

function withPort(host: string, portText: string | undefined): { host: string; port: number | null; problem?: string } {
  if (portText === undefined) return { host, port: null };
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port < 1 || port > 65535)
    return { host, port: null, problem: 'the port must be 1-65535' };
  return { host, port };
}
