import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface ThrottlingProxy {
  /** `http://127.0.0.1:<port>`: where the services are sent instead of the store. */
  url: string;
  /** Chunks held back so far, each for `delayMs`. */
  readonly delayedChunks: number;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of a store that holds every chunk a client sends for `delayMs` before
 * passing it on, in order: each request waits at least that long, and a connection carries at
 * most one chunk per `delayMs` - a slow store, as the services see it.
 */
export async function startThrottlingProxy(target: string, delayMs: number): Promise<ThrottlingProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let delayedChunks = 0;
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    sockets.add(client).add(upstream);
    let chain = Promise.resolve();
    client.on('data', (chunk) => {
      delayedChunks++;
      chain = chain
        .then(() => new Promise((resolve) => setTimeout(resolve, delayMs)))
        .then(() => void (upstream.destroyed || upstream.write(chunk)));
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    get delayedChunks() {
      return delayedChunks;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
