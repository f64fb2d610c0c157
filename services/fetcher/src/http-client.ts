import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import type { AddressPolicy } from './address-policy.js';
import { decodeContent, readCapped } from './body-reader.js';

export interface HttpClientOptions {
  policy: AddressPolicy;
  userAgent: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Keep-alive connections per origin. */
  connectionsPerOrigin: number;
}

export interface HopRequest {
  url: URL;
  headers?: Record<string, string>;
  signal: AbortSignal;
  maxBodyBytes: number;
  /** Decides from status and headers whether the body is worth downloading. */
  wantBody(status: number, headers: Record<string, string>): boolean;
}

export interface HopResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  /** Bytes received on the wire (before decompression). */
  wireBytes: number;
}

const MAX_HEADER_VALUE = 2048;

/** One HTTP GET, no redirects followed: undici connection pools, timeouts, capped and decoded body. */
export class HttpClient {
  private readonly agent: Agent;

  constructor(private readonly options: HttpClientOptions) {
    this.agent = new Agent({
      connect: { timeout: options.connectTimeoutMs, lookup: options.policy.lookup },
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      connections: options.connectionsPerOrigin,
      keepAliveTimeout: 10_000,
      maxHeaderSize: 64 * 1024,
    });
  }

  async get(hop: HopRequest): Promise<HopResponse> {
    // IP literals never reach the connector's DNS lookup, so they are checked here.
    const bare = hop.url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(bare)) await this.options.policy.resolve(bare);
    // A per-hop controller: undici keeps listening to the signal it gets, so a long-lived deadline
    // would later abort bodies that were already read or dropped.
    const controller = new AbortController();
    const abort = () => controller.abort(hop.signal.reason);
    if (hop.signal.aborted) abort();
    hop.signal.addEventListener('abort', abort, { once: true });
    try {
      return await this.send(hop, controller.signal);
    } finally {
      hop.signal.removeEventListener('abort', abort);
    }
  }

  private async send(hop: HopRequest, signal: AbortSignal): Promise<HopResponse> {
    const response = await request(hop.url, {
      dispatcher: this.agent,
      method: 'GET',
      signal,
      headers: {
        'user-agent': this.options.userAgent,
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
        ...hop.headers,
      },
    });
    const headers = flattenHeaders(response.headers);
    response.body.on('error', () => undefined); // errors surface through the reads below
    if (!hop.wantBody(response.statusCode, headers)) {
      response.body.destroy();
      return { status: response.statusCode, headers, body: Buffer.alloc(0), truncated: false, wireBytes: 0 };
    }
    const raw = await readCapped(response.body, hop.maxBodyBytes);
    const decoded = await decodeContent(raw.body, headers['content-encoding'], hop.maxBodyBytes);
    return { status: response.statusCode, headers, body: decoded.body, truncated: raw.truncated || decoded.truncated, wireBytes: raw.body.length };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || count++ >= 64) continue;
    const joined = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
    out[name.toLowerCase()] = joined.length > MAX_HEADER_VALUE ? joined.slice(0, MAX_HEADER_VALUE) : joined;
  }
  return out;
}
