import { UsageError } from '../usage-error.js';
import type { FlagSpec } from '../parse-flags.js';
import { checkFetchCommand, checkFetchHelp, flagSpec as fetchFlags } from './check-fetch.js';
import { checkParseCommand, checkParseHelp, flagSpec as parseFlags } from './check-parse.js';
import { checkRobotsCommand, checkRobotsHelp, flagSpec as robotsFlags } from './check-robots.js';
import { checkSimilarCommand, checkSimilarHelp, flagSpec as similarFlags } from './check-similar.js';
import { checkUrlCommand, checkUrlHelp, flagSpec as urlFlags } from './check-url.js';

interface Check {
  summary: string;
  help: string;
  flags: FlagSpec;
  run(argv: string[]): Promise<number>;
}

export const checks: Record<string, Check> = {
  robots: {
    summary: 'would robots.txt let the crawler fetch these URLs, and which rule decides',
    help: checkRobotsHelp,
    flags: robotsFlags,
    run: checkRobotsCommand,
  },
  fetch: {
    summary: 'fetch one URL as the fetcher does and show outcome, hops, headers, charset, timings',
    help: checkFetchHelp,
    flags: fetchFlags,
    run: checkFetchCommand,
  },
  url: {
    summary: 'canonical form, SURT key, link base id and registrable domain of a URL',
    help: checkUrlHelp,
    flags: urlFlags,
    run: checkUrlCommand,
  },
  parse: {
    summary: 'parse a page (URL or file) as link extraction does: links, main text, fields',
    help: checkParseHelp,
    flags: parseFlags,
    run: checkParseCommand,
  },
  similar: {
    summary: 'compare two pages (URLs or files) as dedup does: fingerprints, distances, decision',
    help: checkSimilarHelp,
    flags: similarFlags,
    run: checkSimilarCommand,
  },
};

export const checkHelp = `Usage: crawler check <what> [options]

${Object.entries(checks)
  .map(([name, check]) => `  ${name.padEnd(8)} ${check.summary}`)
  .join('\n')}

Run "crawler check <what> --help" for its options.`;

/** Debugging tools for users: each check answers one question the way the services would. */
export async function checkCommand(argv: string[]): Promise<number> {
  const [what, ...rest] = argv;
  if (!what || what === '--help' || what === '-h') {
    (what ? process.stdout : process.stderr).write(`${checkHelp}\n`);
    return what ? 0 : 2;
  }
  const check = checks[what];
  if (!check) throw new UsageError(`crawler check: unknown check "${what}" (see crawler check --help)`);
  return check.run(rest);
}
