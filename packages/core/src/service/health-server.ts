import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HealthChecks {
  /** Alive: the process is running its loop. */
  live(): boolean;
  /** Ready: started, connected, not stopping. */
  ready(): boolean;
  /** Extra JSON for humans (counters, in-flight work). */
  details?(): Record<string, unknown>;
  /** Prometheus text exposition for /metrics. */
  metrics?(): Promise<string>;
}

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/** /healthz and /readyz for probes (200 with a small JSON body, or 503), and /metrics for Prometheus. */
export async function startHealthServer(host: string, port: number, checks: HealthChecks): Promise<HealthServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/metrics' && checks.metrics) {
      checks.metrics().then(
        (text) => {
          response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
          response.end(text);
        },
        () => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end('metrics unavailable\n');
        },
      );
      return;
    }
    const ok = path === '/healthz' ? checks.live() : path === '/readyz' ? checks.ready() : null;
    if (ok === null) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"not found"}');
      return;
    }
    response.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ status: ok ? 'ok' : 'unavailable', ...checks.details?.() }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
