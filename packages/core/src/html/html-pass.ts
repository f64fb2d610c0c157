import { Parser } from 'htmlparser2';
import type { HtmlCollector } from './html-collector.js';

export interface PassGuard {
  /** Open elements at which parsing stops: the parser's own stack makes each level cost more. */
  maxOpenElements: number;
  /** Parsing stops after this long (checked between chunks). */
  maxParseMs: number;
  warn(reason: string): void;
}

/** Markup is fed in chunks so the guard can stop a pathological document between them. */
const CHUNK_CHARS = 16 * 1024;

export const defaultPassGuard: Omit<PassGuard, 'warn'> = Object.freeze({ maxOpenElements: 10_000, maxParseMs: 5000 });

/**
 * Tokenizes the markup once and hands every event to each collector, in order. htmlparser2
 * keeps open elements in an array it shifts and scans, so tens of thousands of unclosed
 * elements cost quadratic time: past `maxOpenElements`, or past the time budget, the rest of the
 * document is not parsed and the page is flagged (`nesting-abandoned`, `parse-time-capped`).
 */
export function runHtmlPass(
  html: string,
  collectors: readonly HtmlCollector[],
  guard: PassGuard = { ...defaultPassGuard, warn: () => {} },
): void {
  let open = 0;
  // After a stop, end() still closes the open elements (collectors finish their anchors and
  // captures) but the unparsed rest yields no more elements or text.
  let stopped = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (stopped) return;
        open++;
        for (const collector of collectors) collector.open(name, attributes);
      },
      ontext(data) {
        if (stopped) return;
        for (const collector of collectors) collector.text(data);
      },
      onclosetag(name) {
        open--;
        for (const collector of collectors) collector.close(name);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  const started = performance.now();
  for (let offset = 0; offset < html.length; offset += CHUNK_CHARS) {
    parser.write(html.slice(offset, offset + CHUNK_CHARS));
    if (open > guard.maxOpenElements || performance.now() - started > guard.maxParseMs) {
      guard.warn(open > guard.maxOpenElements ? 'nesting-abandoned' : 'parse-time-capped');
      stopped = true;
      break;
    }
  }
  parser.end();
}
