import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BackendError, errorMessage, type Logger, ErrorCode } from '@crawler/core';
import { AdminRequestError } from './admin-errors.js';
import { createTokenCheck } from './admin-token.js';
import type { SchedulerAdmin } from './scheduler-admin.js';

/** Largest request body read: a crawl job file or a batch of seeds. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface AdminServerOptions {
  token: string;
  port: number;
  host: string;
}

export interface RunningAdminServer {
  port: number;
  close(): Promise<void>;
}

type Handler = (
  admin: SchedulerAdmin,
  params: string[],
  request: IncomingMessage,
  url: URL,
) => Promise<[number, unknown]>;

const routes: { method: string; path: RegExp; handler: Handler }[] = [
  { method: 'GET', path: /^\/jobs$/, handler: async (admin) => [200, admin.listJobs()] },
  {
    method: 'POST',
    path: /^\/jobs$/,
    handler: async (admin, _, request) => [201, await admin.addJob(await readJson(request))],
  },
  {
    method: 'POST',
    path: /^\/jobs\/([^/]+)\/seeds$/,
    handler: async (admin, [id], request) => [
      200,
      await admin.addSeeds(id!, ((await readJson(request)) as { urls?: unknown } | null)?.urls),
    ],
  },
  {
    method: 'POST',
    path: /^\/jobs\/([^/]+)\/(pause|resume)$/,
    handler: async (admin, [id, action]) => [200, await admin.setJobPaused(id!, action === 'pause')],
  },
  {
    method: 'POST',
    path: /^\/hosts\/([^/]+)\/(pause|resume)$/,
    handler: async (admin, [host, action]) => [200, await admin.setQueuePaused(host!, action === 'pause')],
  },
  {
    method: 'GET',
    path: /^\/urls$/,
    handler: async (admin, _, __, url) => [200, await admin.record(url.searchParams.get('url') ?? '')],
  },
  { method: 'GET', path: /^\/stats$/, handler: async (admin) => [200, await admin.statistics()] },
];

/**
 * The scheduler's admin HTTP API (JSON). Every request needs `Authorization: Bearer <token>`;
 * a missing or wrong token is answered 401 before anything else, and the token is never logged.
 * Routes: GET /jobs, POST /jobs (a crawl job), POST /jobs/:id/seeds ({"urls": [...]}),
 * POST /jobs/:id/pause|resume, POST /hosts/:host/pause|resume, GET /urls?url=..., GET /stats.
 */
export async function startAdminServer(
  admin: SchedulerAdmin,
  options: AdminServerOptions,
  logger: Logger,
): Promise<RunningAdminServer> {
  const log = logger.child({ component: 'admin-api' });
  const authorized = createTokenCheck(options.token);
  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) =>
      log.error({ err: errorMessage(error) }, 'admin request failed unexpectedly'),
    );
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!authorized(request.headers.authorization)) {
      log.warn(
        { method: request.method, path: (request.url ?? '').split('?')[0], remote: request.socket.remoteAddress },
        'admin request refused: missing or wrong token',
      );
      return send(
        response,
        401,
        { error: ErrorCode.ADMIN_UNAUTHORIZED, message: 'send Authorization: Bearer <SCHEDULER_ADMIN_TOKEN>' },
        { 'www-authenticate': 'Bearer' },
      );
    }
    const url = new URL(request.url ?? '/', 'http://admin.invalid');
    const route = routes.find((candidate) => candidate.path.test(url.pathname) && candidate.method === request.method);
    if (!route) {
      const known = routes.some((candidate) => candidate.path.test(url.pathname));
      return send(response, known ? 405 : 404, {
        error: known ? ErrorCode.ADMIN_METHOD_NOT_ALLOWED : ErrorCode.ADMIN_NOT_FOUND,
        message: `${request.method} ${url.pathname}`,
      });
    }
    try {
      const params = route.path.exec(url.pathname)!.slice(1).map(decodePart);
      const [status, body] = await route.handler(admin, params, request, url);
      log.info({ method: request.method, path: url.pathname, status }, 'admin request');
      send(response, status, body);
    } catch (error) {
      if (error instanceof AdminRequestError)
        return send(response, error.httpStatus, { error: error.code, message: error.message });
      const status = error instanceof BackendError ? 503 : 500;
      log.error({ method: request.method, path: url.pathname, err: errorMessage(error) }, 'admin request failed');
      send(response, status, {
        error: status === 503 ? ErrorCode.BACKEND_UNAVAILABLE : ErrorCode.UNEXPECTED,
        message: errorMessage(error),
      });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  log.info({ host: options.host, port }, 'admin API listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch (cause) {
    throw new AdminRequestError(ErrorCode.ADMIN_BAD_REQUEST, `bad percent-encoding in the path: ${part}`, { cause });
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = `${JSON.stringify(body, null, 2)}\n`;
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(text);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw new AdminRequestError(ErrorCode.ADMIN_BODY_TOO_LARGE, `request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return null;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new AdminRequestError(ErrorCode.ADMIN_BAD_REQUEST, `body is not JSON: ${errorMessage(cause)}`, { cause });
  }
}
