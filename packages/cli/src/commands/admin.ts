import { readFileSync } from 'node:fs';
import { canonicalUrl, CrawlerError, ErrorCode } from '@crawler/core';
import { parseFlags } from '../parse-flags.js';
import { jsonLine, textLines } from '../terminal-text.js';
import { UsageError } from '../usage-error.js';

export const adminHelp = `Usage: crawler admin <command> [arguments] [options]

Talks to a running scheduler's admin API (SCHEDULER_ADMIN_TOKEN set on the scheduler).

Commands:
  jobs                       list the crawl jobs
  add-job FILE               add (or replace) a crawl job from a job file; its seeds are queued
  add-seeds JOB URL...       add seed URLs to a job (or --file FILE, one URL per line)
  pause-job JOB              stop handing out the job's URLs (resume-job JOB to go on)
  pause-host HOST            stop handing out the host's URLs, as host or host:port (resume-host HOST)
  url URL                    show the link base record of one URL
  stats                      queue statistics: by status, job, class and level; due; in flight; paused

Options:
  --admin URL         the admin API (default $SCHEDULER_ADMIN_URL, else http://127.0.0.1:8090)
  --token-file FILE   file holding the token (default: $SCHEDULER_ADMIN_TOKEN); never put it on the command line
  --file FILE         add-seeds: URLs, one per line (# comments allowed)
  -h, --help          this help

Prints the answer as JSON. Exit code 0 on success, 1 when the scheduler refused or failed.`;

export const flagSpec = {
  admin: { type: 'string' },
  'token-file': { type: 'string' },
  file: { type: 'string' },
} as const;

/** The scheduler's admin API answered with an error; the message carries its code and reason. */
export class AdminCallError extends CrawlerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(ErrorCode.CLI_ADMIN_FAILED, message, options);
  }
}

/** The admin API's commands, each a route of the scheduler's admin server. */
export const adminActions = [
  'jobs',
  'stats',
  'add-job',
  'add-seeds',
  'pause-job',
  'resume-job',
  'pause-host',
  'resume-host',
  'url',
] as const;

interface AdminRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** The request for one command line, or a usage error naming what is missing. */
export function adminRequest(command: string | undefined, args: string[], seedsFile?: string): AdminRequest {
  const need = (count: number, what: string) => {
    if (args.length < count) throw new UsageError(`crawler admin ${command}: ${what} (see crawler admin --help)`);
  };
  const segment = (value: string) => encodeURIComponent(value);
  switch (command) {
    case 'jobs':
      return { method: 'GET', path: '/jobs' };
    case 'stats':
      return { method: 'GET', path: '/stats' };
    case 'add-job':
      need(1, 'name the job file');
      return { method: 'POST', path: '/jobs', body: readJson(args[0]!) };
    case 'add-seeds': {
      need(1, 'name the job');
      const urls = [...args.slice(1), ...(seedsFile ? readLines(seedsFile) : [])];
      if (urls.length === 0) throw new UsageError('crawler admin add-seeds: give seed URLs or --file FILE');
      const bad = urls.find((url) => canonicalUrl(url) === null);
      if (bad !== undefined) throw new UsageError(`crawler admin add-seeds: "${bad}" is not an http(s) URL`);
      return { method: 'POST', path: `/jobs/${segment(args[0]!)}/seeds`, body: { urls } };
    }
    case 'pause-job':
    case 'resume-job':
      need(1, 'name the job');
      return { method: 'POST', path: `/jobs/${segment(args[0]!)}/${command.split('-')[0]}` };
    case 'pause-host':
    case 'resume-host':
      need(1, 'name the host (host or host:port)');
      return { method: 'POST', path: `/hosts/${segment(args[0]!)}/${command.split('-')[0]}` };
    case 'url':
      need(1, 'give the URL');
      return { method: 'GET', path: `/urls?url=${encodeURIComponent(args[0]!)}` };
    default:
      throw new UsageError(`crawler admin: unknown command "${command ?? ''}" (see crawler admin --help)`);
  }
}

export async function adminCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseFlags('admin', argv, flagSpec, true);
  if (values.help || positionals.length === 0) {
    (values.help ? process.stdout : process.stderr).write(`${adminHelp}\n`);
    return values.help ? 0 : 2;
  }
  const [command, ...args] = positionals;
  if (values.file !== undefined && command !== 'add-seeds')
    throw new UsageError(`crawler admin ${command}: --file is for add-seeds (see crawler admin --help)`);
  const request = adminRequest(command, args, values.file);
  const token = values['token-file'] ? readToken(values['token-file']) : env.SCHEDULER_ADMIN_TOKEN;
  if (!token) throw new UsageError('crawler admin: no token: set SCHEDULER_ADMIN_TOKEN or give --token-file FILE');
  const base = values.admin ?? env.SCHEDULER_ADMIN_URL ?? 'http://127.0.0.1:8090';
  if (!/^https?:\/\//i.test(base) || !URL.canParse(base))
    throw new UsageError(
      `crawler admin: ${values.admin !== undefined ? '--admin' : 'SCHEDULER_ADMIN_URL'} "${base}" is not an http(s) URL`,
    );
  let response: Response;
  try {
    response = await fetch(new URL(request.path, base), {
      method: request.method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
  } catch (cause) {
    throw new AdminCallError(`cannot reach the admin API at ${base}: ${(cause as Error).message}`, { cause });
  }
  const text = await response.text();
  if (!response.ok) {
    let reason = text.trim();
    try {
      const body = JSON.parse(text) as { error?: string; message?: string };
      reason = `${body.message ?? ''} (${body.error ?? response.status})`;
    } catch {
      // Not our JSON (a proxy's error page): shown as it came.
    }
    throw new AdminCallError(`the scheduler answered ${response.status}: ${reason}`);
  }
  process.stdout.write(shownAnswer(text));
  return 0;
}

/** The scheduler's JSON as one line, or, should something else answer, its lines made inert. */
function shownAnswer(text: string): string {
  try {
    return jsonLine(JSON.parse(text));
  } catch {
    return textLines(text.trimEnd().split('\n'));
  }
}

function readToken(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (cause) {
    throw new UsageError(`crawler admin: cannot read --token-file ${path}: ${(cause as Error).message}`);
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new UsageError(`crawler admin: cannot read the job file ${path}: ${(cause as Error).message}`);
  }
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
  } catch (cause) {
    throw new UsageError(`crawler admin: cannot read ${path}: ${(cause as Error).message}`);
  }
}
