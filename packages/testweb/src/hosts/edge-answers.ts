import type { RawAnswer, Resource } from '../model/web-model.js';

/** A small UTF-8 HTML page as a raw answer. */
export function htmlAnswer(title: string, text: string, headers: Record<string, string | string[]> = {}): RawAnswer {
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
    body: Buffer.from(
      `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><p>${text}</p></body></html>\n`,
    ),
  };
}

/** A resource that always gives the same answer. */
export function fixed(answer: RawAnswer): Resource {
  return { kind: 'raw', answer: () => answer };
}

/** A resource whose answer is built on first use and kept (large or costly bodies). */
export function lazy(build: () => RawAnswer): Resource {
  let answer: RawAnswer | undefined;
  return { kind: 'raw', answer: () => (answer ??= build()) };
}

export function redirectAnswer(status: 301 | 302 | 303 | 307 | 308, location: string): RawAnswer {
  return { status, headers: { location } };
}
