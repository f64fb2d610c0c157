import { parseArgs } from 'node:util';
import { InvalidOptionsError } from './errors.js';
import type { TestWebOptions } from './options.js';

export const USAGE = `Usage: crawler-testweb [options]

Serves the deterministic synthetic web on 127.0.0.1, one port per host. When every host listens,
prints one JSON line {"hosts":[{"name","origin"}],"seeds":[...]} to stdout.

Options:
  --profile <full|bench|edge|render|hostile|guarded>  site model (default full); edge: HTTP edge cases, no seeds; render: pages built by JavaScript; hostile: answers that hurt crawlers, no seeds; guarded: a site that blacklists crawler-like networks
  --hosts <n>                content hosts (full: 6, bench: 10)
  --pages-per-host <n>       pages per host (full: 60, bench: 1000)
  --page-bytes <n>           bench: approximate page size in bytes (default 4096)
  --links-per-page <n>       bench: links on every page (default 20)
  --seed <n>                 same seed, same web (default 1)
  --base-port <port>         host i listens on port+i (default: ports picked by the OS)
  --truth <file>             write the ground truth JSON there (rewritten on every round change)
  --help                     show this text

Stdin accepts the line "round <n>" to switch content rounds; it answers {"round":n} on stdout.
SIGTERM or SIGINT closes every listener and exits with status 0.`;

export interface CliArgs {
  help: boolean;
  options: TestWebOptions;
  truthFile: string | undefined;
}

export function parseCliArgs(argv: string[]): CliArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      profile: { type: 'string' },
      hosts: { type: 'string' },
      'pages-per-host': { type: 'string' },
      'page-bytes': { type: 'string' },
      'links-per-page': { type: 'string' },
      seed: { type: 'string' },
      'base-port': { type: 'string' },
      truth: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const profile = values.profile;
  if (
    profile !== undefined &&
    profile !== 'full' &&
    profile !== 'bench' &&
    profile !== 'edge' &&
    profile !== 'render' &&
    profile !== 'hostile' &&
    profile !== 'guarded'
  ) {
    throw new InvalidOptionsError(`--profile must be full, bench, edge, render, hostile or guarded, got ${profile}`);
  }
  const options: TestWebOptions = {
    profile,
    hosts: toNumber('--hosts', values.hosts),
    pagesPerHost: toNumber('--pages-per-host', values['pages-per-host']),
    pageBytes: toNumber('--page-bytes', values['page-bytes']),
    linksPerPage: toNumber('--links-per-page', values['links-per-page']),
    seed: toNumber('--seed', values.seed),
    basePort: toNumber('--base-port', values['base-port']),
  };
  return { help: values.help === true, options, truthFile: values.truth };
}

function toNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new InvalidOptionsError(`${flag} needs a number, got "${value}"`);
  return n;
}
