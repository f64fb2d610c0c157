import { buildConnector } from 'undici';
import { effectivePort, type AddressPolicy } from './address-policy.js';

/**
 * undici's connector with the address policy in its DNS lookup. net's lookup is not told the
 * port, and an allow-list entry can admit one origin (address and port), so there is one inner
 * connector per port, each judging for its own port.
 */
export function createGuardedConnector(policy: AddressPolicy, timeoutMs: number): buildConnector.connector {
  const byPort = new Map<number, buildConnector.connector>();
  return (options, callback) => {
    const port = effectivePort(options.protocol, options.port);
    let connector = byPort.get(port);
    if (!connector) {
      connector = buildConnector({ timeout: timeoutMs, lookup: policy.lookupFor(port) });
      byPort.set(port, connector);
    }
    connector(options, callback);
  };
}
