import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface HostListener {
  server: Server;
  origin: string;
  /** Installs the handler; requests arriving earlier get 503 (the model is built after ports are known). */
  attach(listener: RequestListener): void;
}

const KEEP_ALIVE_MS = 30_000;

/** One HTTP listener per host on 127.0.0.1, on `basePort + i` or on ports the OS picks. */
export async function listenHosts(count: number, basePort: number | undefined): Promise<HostListener[]> {
  const started: HostListener[] = [];
  try {
    for (let i = 0; i < count; i++) started.push(await listenHost(basePort === undefined ? 0 : basePort + i));
  } catch (error) {
    await Promise.all(started.map((h) => closeServer(h.server)));
    throw error;
  }
  return started;
}

async function listenHost(port: number): Promise<HostListener> {
  let handler: RequestListener = (_req, res) => {
    res.writeHead(503, { 'retry-after': '1' });
    res.end();
  };
  const server = createServer({ noDelay: true, keepAlive: true }, (req, res) => handler(req, res));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${actual}`,
    attach: (listener) => {
      handler = listener;
    },
  };
}

/** Closes the listener and every connection on it, idle keep-alive and mid-response alike. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
