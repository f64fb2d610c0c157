import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli.js';
import { capture } from './test-support/capture-output.js';

/** A page whose title, description and text try to drive the terminal and forge a line of output. */
const HOSTILE_TITLE =
  'Home\u001b]8;;http://evil.test\u0007click\u001b]8;;\u0007\u001b[2J\nFORGED LINE\u009b31m\u202egnp.exe';
const HOSTILE_PAGE = `<!DOCTYPE html><html><head><title>${HOSTILE_TITLE}</title>
<meta name="description" content="desc\u001b[31mred\rFORGED DESCRIPTION">
</head><body><article><p>First paragraph of the story, long enough to be the main text of this page.\u001b[5m</p>
<p>Second paragraph.\u0007 Bell and \u2066isolate\u2069 and more words so the extractor keeps it.</p>
<a href="/next">next</a></article></body></html>`;

/** Anything a terminal acts on instead of showing, newline aside (each line is ours). */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('what check commands print from a page', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/robots.txt') return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOSTILE_PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  afterEach(() => vi.restoreAllMocks());

  const withCredentials = () => origin.replace('http://', 'http://alice:hunter2-secret@');

  it.each([
    ['check fetch', ['check', 'fetch']],
    ['check fetch --json', ['check', 'fetch', '--json']],
    ['check parse', ['check', 'parse']],
    ['check parse --json', ['check', 'parse', '--json']],
  ])('%s: no raw control character, no forged line, no credentials', async (_name, command) => {
    const io = capture();
    const code = await runCli([...command, '--allow-address', '127.0.0.1', `${withCredentials()}/page`]);
    expect(code, io.err()).toBe(0);
    const out = io.out();
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).not.toMatch(/^FORGED/m);
    expect(out).not.toContain('hunter2');
    expect(out).toContain('[redacted]@127.0.0.1');
    if (command.includes('--json')) {
      // Still the same JSON: the escapes decode to what the page said.
      const report = JSON.parse(out) as { title: string };
      expect(report.title).toContain('\u001b]8;;http://evil.test');
    } else {
      expect(out).toContain('Home\\x1b]8;;http://evil.test\\x07click');
      expect(out).toContain('FORGED LINE\\x9b31m\\u202egnp.exe');
    }
  });

  it('an error that quotes a URL hides its credentials and stays one line', async () => {
    const io = capture();
    expect(await runCli(['check', 'parse', `${withCredentials()}/page`])).toBe(1);
    expect(io.err()).toMatch(
      /^crawler check parse: http:\/\/\[redacted\]@127\.0\.0\.1:\d+\/page was not fetched: blocked_address/,
    );
    expect(io.err()).not.toContain('hunter2');
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });
});
