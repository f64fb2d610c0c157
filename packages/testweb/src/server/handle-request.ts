import type { IncomingMessage, ServerResponse } from 'node:http';
import { findResource, type HostModel, type PageSpec, type RawAnswer, type Resource } from '../model/web-model.js';
import { isNotModified } from './conditional-get.js';
import type { WebState } from './web-state.js';
import { sendWire } from './wire-answer.js';

const DRIP_INTERVAL_MS = 100;
const DRIP_CHUNK = Buffer.from('<p>still loading&hellip;</p>\n');
const STATUS_TEXT: Record<number, string> = {
  301: 'Moved Permanently',
  302: 'Found',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  410: 'Gone',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The request listener of one host: looks the path up in the model and answers as it says. */
export function createRequestHandler(
  state: WebState,
  host: HostModel,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      sendStatus(res, 405, false, { allow: 'GET, HEAD' });
      return;
    }
    const head = method === 'HEAD';
    // Well-behaved clients send canonical paths, which hit the map directly; others are normalized.
    let path = req.url ?? '/';
    let resource: Resource | undefined = host.resources.get(path);
    if (!resource) {
      path = canonicalPath(path, host.origin);
      resource = findResource(host, path);
    }
    state.log.record(`${host.origin}${path}`, method, req.socket.remoteAddress ?? '');
    const refusal = host.guard?.({ remote: req.socket.remoteAddress ?? '', path, now: Date.now() });
    if (refusal) {
      sendRaw(state, res, refusal, head);
      return;
    }
    if (!resource) {
      sendStatus(res, 404, head);
      return;
    }
    switch (resource.kind) {
      case 'page':
        sendPage(state, host, resource.page, req, res, head, path);
        return;
      case 'redirect':
        sendStatus(res, resource.status, head, { location: resource.location });
        return;
      case 'error':
        sendStatus(res, resource.status, head, resource.status === 429 ? { 'retry-after': '1' } : {});
        return;
      case 'flaky': {
        const key = `${host.origin}${path}`;
        const served = state.flakyServed.get(key) ?? 0;
        if (served < resource.failures) {
          state.flakyServed.set(key, served + 1);
          sendStatus(res, resource.status, head, resource.status === 429 ? { 'retry-after': '1' } : {});
        } else {
          sendPage(state, host, resource.page, req, res, head, path);
        }
        return;
      }
      case 'slow': {
        const { page } = resource;
        const timer = setTimeout(() => {
          state.timers.delete(timer);
          if (!res.destroyed) sendPage(state, host, page, req, res, head, path);
        }, resource.delayMs);
        state.timers.add(timer);
        res.once('close', () => {
          clearTimeout(timer);
          state.timers.delete(timer);
        });
        return;
      }
      case 'endless':
        drip(state, res, head);
        return;
      case 'raw':
        sendRaw(state, res, resource.answer({ headers: req.headers, now: Date.now() }), head);
        return;
      case 'wire':
        sendWire(state, req.socket, resource.answer);
        return;
      case 'file': {
        const body = resource.body({ round: state.round, truth: state.truth });
        res.writeHead(200, { 'content-type': resource.contentType, 'content-length': body.length });
        res.end(head ? undefined : body);
        return;
      }
    }
  };
}

function sendRaw(state: WebState, res: ServerResponse, answer: RawAnswer, head: boolean): void {
  const send = () => {
    const body = answer.body ?? Buffer.alloc(0);
    res.writeHead(answer.status, STATUS_TEXT[answer.status] ?? 'Status', {
      'content-length': body.length,
      ...answer.headers,
    });
    res.end(head ? undefined : body);
  };
  if (!answer.delayMs) return send();
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    if (!res.destroyed) send();
  }, answer.delayMs);
  state.timers.add(timer);
  res.once('close', () => {
    clearTimeout(timer);
    state.timers.delete(timer);
  });
}

function sendPage(
  state: WebState,
  host: HostModel,
  page: PageSpec,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  path: string,
): void {
  const rendered = state.renderer.render(host, page, state.round);
  if (rendered.etag !== undefined && rendered.lastModified !== undefined) {
    const validators = { etag: rendered.etag, 'last-modified': rendered.lastModified };
    if (isNotModified(req, rendered.etag, rendered.lastModified)) {
      state.log.recordNotModified(`${host.origin}${path}`);
      res.writeHead(304, validators);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': rendered.contentType, 'content-length': rendered.body.length, ...validators });
  } else {
    res.writeHead(200, { 'content-type': rendered.contentType, 'content-length': rendered.body.length });
  }
  res.end(head ? undefined : rendered.body);
}

function sendStatus(res: ServerResponse, status: number, head: boolean, headers: Record<string, string> = {}): void {
  const text = STATUS_TEXT[status] ?? 'Status';
  const body = Buffer.from(
    `<!DOCTYPE html>\n<html><head><title>${status} ${text}</title></head><body><h1>${text}</h1></body></html>\n`,
  );
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, ...headers });
  res.end(head ? undefined : body);
}

// Sends a page head, then a paragraph every DRIP_INTERVAL_MS until the client goes away or the web closes.
function drip(state: WebState, res: ServerResponse, head: boolean): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  if (head) {
    res.end();
    return;
  }
  res.write('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Live ticker</title></head><body>\n');
  const timer = setInterval(() => {
    if (res.destroyed || res.writableEnded) stop();
    else res.write(DRIP_CHUNK);
  }, DRIP_INTERVAL_MS);
  const stop = () => {
    clearInterval(timer);
    state.timers.delete(timer);
  };
  state.timers.add(timer);
  res.once('close', stop);
}

function canonicalPath(raw: string, origin: string): string {
  try {
    const url = new URL(raw.startsWith('/') ? `${origin}${raw}` : raw);
    return `${url.pathname}${url.search}`;
  } catch {
    return raw;
  }
}
