import { isIP } from 'node:net';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { effectivePort, type AddressPolicy } from './address-policy.js';
import { ACCEPT_ENCODING, decodeContent, readCapped } from './body-reader.js';
import { createGuardedConnector } from './guarded-connector.js';

export interface HttpClientOptions {
  policy: AddressPolicy;
  userAgent: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Keep-alive connections per origin. */
  connectionsPerOrigin: number;
  /** Plain HTTP(S) forward proxy as egress, e.g. http://proxy.internal:3128; null: direct. */
  proxyUrl?: string | null;
  /** Accept header: the media types worth asking for. */
  accept?: string;
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
  /** The headers this request was sent with: what an archive's request record shows. */
  requestHeaders: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  /** Bytes received on the wire (before decompression). */
  wireBytes: number;
  /** A Content-Encoding we did not ask for and cannot decode (zstd): `body` is still encoded, so it is no page. */
  undecodedEncoding?: string;
  /** Milliseconds from sending the request to its headers, and from there to the end of the body. */
  timings: { headersMs: number; bodyMs: number };
}

const MAX_HEADER_VALUE = 2048;

/**
 * One HTTP GET, no redirects followed: undici connection pools, timeouts, capped and decoded body.
 * Direct connections check the resolved address inside the connector's DNS lookup. Through a
 * proxy the proxy resolves names, so the name is resolved and checked here first; a DNS answer
 * that changes between our lookup and the proxy's is the residual risk of proxied egress.
 */
export class HttpClient {
  private readonly dispatcher: Dispatcher;
  private readonly proxied: boolean;

  constructor(private readonly options: HttpClientOptions) {
    const common = {
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      connections: options.connectionsPerOrigin,
      keepAliveTimeout: 10_000,
      maxHeaderSize: 64 * 1024,
    };
    this.proxied = Boolean(options.proxyUrl);
    this.dispatcher = options.proxyUrl
      ? // proxyTunnel false: plain http goes as absolute-form requests (proxies often refuse CONNECT to port 80); https is tunnelled.
        new ProxyAgent({
          ...common,
          uri: options.proxyUrl,
          proxyTunnel: false,
          connect: { timeout: options.connectTimeoutMs },
        })
      : new Agent({ ...common, connect: createGuardedConnector(options.policy, options.connectTimeoutMs) });
  }

  async get(hop: HopRequest): Promise<HopResponse> {
    // IP literals never reach the connector's DNS lookup, and a proxy does its own: both are checked here.
    const bare = hop.url.hostname.replace(/^\[|\]$/g, '');
    if (this.proxied || isIP(bare))
      await this.options.policy.resolve(bare, effectivePort(hop.url.protocol, hop.url.port));
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
    const started = performance.now();
    const requestHeaders = {
      'user-agent': this.options.userAgent,
      accept: this.options.accept ?? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
      'accept-encoding': ACCEPT_ENCODING,
      ...hop.headers,
    };
    const response = await request(hop.url, {
      dispatcher: this.dispatcher,
      method: 'GET',
      signal,
      headers: requestHeaders,
    });
    const headersAt = performance.now();
    const timings = () => ({
      headersMs: Math.round(headersAt - started),
      bodyMs: Math.round(performance.now() - headersAt),
    });
    const headers = flattenHeaders(response.headers);
    response.body.on('error', () => undefined); // errors surface through the reads below
    if (!hop.wantBody(response.statusCode, headers)) {
      response.body.destroy();
      return {
        status: response.statusCode,
        headers,
        requestHeaders,
        body: Buffer.alloc(0),
        truncated: false,
        wireBytes: 0,
        timings: timings(),
      };
    }
    const raw = await readCapped(response.body, hop.maxBodyBytes);
    const decoded = await decodeContent(raw.body, headers['content-encoding'], hop.maxBodyBytes);
    return {
      status: response.statusCode,
      headers,
      requestHeaders,
      body: decoded.body,
      truncated: raw.truncated || decoded.truncated,
      wireBytes: raw.body.length,
      timings: timings(),
      ...(decoded.encoding.startsWith('unsupported:') ? { undecodedEncoding: decoded.encoding.slice(12) } : {}),
    };
  }

  close(): Promise<void> {
    return this.dispatcher.close();
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
