import { ConfigError, CrawlerError } from '@crawler/core';
import { adminActions, adminCommand, adminHelp, flagSpec as adminFlags } from './commands/admin.js';
import { checkCommand, checkHelp, checks } from './commands/check.js';
import { demoCommand, demoHelp, flagSpec as demoFlags } from './commands/demo.js';
import { dlqCommand, dlqHelp, flagSpec as dlqFlags } from './commands/dlq.js';
import { errorsCommand, errorsHelp, flagSpec as errorsFlags } from './commands/errors.js';
import { exportCommand, exportHelp, flagSpec as exportFlags } from './commands/export.js';
import { flagSpec as footprintFlags, footprintCommand, footprintHelp } from './commands/footprint.js';
import { flagSpec as lagFlags, lagCommand, lagHelp } from './commands/lag.js';
import { flagSpec as pageFlags, pageCommand, pageHelp } from './commands/page.js';
import { flagSpec as renderFlags, renderCommand, renderHelp } from './commands/render.js';
import { flagSpec as runFlags, runCommand, runHelp } from './commands/run.js';
import { flagSpec as statusFlags, statusCommand, statusHelp } from './commands/status.js';
import { flagSpec as tapFlags, tapCommand, tapHelp } from './commands/tap.js';
import type { FlagSpec } from './parse-flags.js';
import { checkSettings } from './setting-groups.js';
import { shown } from './terminal-text.js';
import { UsageError } from './usage-error.js';

export interface CliCommand {
  summary: string;
  help: string;
  /**
   * The flags parseFlags reads, by subcommand ('' for a command without any): a test drives
   * every command and subcommand listed here with bad flags, values, files and settings.
   */
  flags: Record<string, FlagSpec>;
  run(argv: string[]): Promise<number>;
}

export const commands: Record<string, CliCommand> = {
  run: {
    summary: 'crawl from seeds in one process, no servers needed',
    help: runHelp,
    flags: { '': runFlags },
    run: runCommand,
  },
  demo: {
    summary: 'start the local test web, crawl it and check the result',
    help: demoHelp,
    flags: { '': demoFlags },
    run: demoCommand,
  },
  check: {
    summary: 'check a URL: robots.txt verdict, or a fetch as the fetcher does it',
    help: checkHelp,
    flags: Object.fromEntries(Object.entries(checks).map(([name, check]) => [name, check.flags])),
    run: checkCommand,
  },
  admin: {
    summary: "a running scheduler's admin API: jobs, seeds, pause/resume, one URL, queue statistics",
    help: adminHelp,
    flags: Object.fromEntries(adminActions.map((action) => [action, adminFlags])),
    run: (argv) => adminCommand(argv),
  },
  lag: {
    summary: "consumer lag of the crawl's groups per topic and partition, with owners",
    help: lagHelp,
    flags: { '': lagFlags },
    run: (argv) => lagCommand(argv),
  },
  tap: {
    summary: "print a topic's records as JSON lines, decoded with schemas/",
    help: tapHelp,
    flags: { '': tapFlags },
    run: (argv) => tapCommand(argv),
  },
  render: {
    summary: 'fetch and render one URL as the fetcher would: route, requests, refusals, links',
    help: renderHelp,
    flags: { '': renderFlags },
    run: renderCommand,
  },
  status: {
    summary: 'the crawl on one screen: URLs, throughput, errors, lag, workers',
    help: statusHelp,
    flags: { '': statusFlags },
    run: (argv) => statusCommand(argv),
  },
  errors: {
    summary: 'failed URLs from the link base with their cause; --requeue makes them due',
    help: errorsHelp,
    flags: { '': errorsFlags },
    run: (argv) => errorsCommand(argv),
  },
  footprint: {
    summary: "the crawler's footprint per site and egress network, in 10-minute windows, as sites count it",
    help: footprintHelp,
    flags: { '': footprintFlags },
    run: (argv) => footprintCommand(argv),
  },
  dlq: {
    summary: 'dead letters on crawl.dlq with code and reason; replay sends them back to their topic',
    help: dlqHelp,
    flags: { list: dlqFlags, replay: dlqFlags },
    run: (argv) => dlqCommand(argv),
  },
  page: {
    summary: 'read a stored page back: newest version or all, from WARC files or HBase',
    help: pageHelp,
    flags: { get: pageFlags },
    run: (argv) => pageCommand(argv),
  },
  export: {
    summary: "hand the crawl's archive over: WACZ, or WARC from HBase",
    help: exportHelp,
    flags: { wacz: exportFlags, warc: exportFlags },
    run: (argv) => exportCommand(argv),
  },
};

export const usage = `Usage: crawler <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
  .join('\n')}

Run "crawler <command> --help" for a command's options.`;

/** Runs one command line and returns the exit code: 0 done, 1 failed, 2 bad usage or a bad setting. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (!name || name === '--help' || name === '-h' || name === 'help') {
      (name ? process.stdout : process.stderr).write(`${usage}\n`);
      return name ? 0 : 2;
    }
    const command = commands[name];
    if (!command) throw new UsageError(`crawler: unknown command "${name}" (see crawler --help)`);
    // Help needs no settings; everything else starts from settings known to be good.
    if (!rest.some((arg) => arg === '--help' || arg === '-h')) checkSettings(process.env);
    return await command.run(rest);
  } catch (error) {
    return reportFailure(error);
  }
}

/** One line on stderr, never a control character or a URL's credentials; the exit code by kind of failure. */
function reportFailure(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`${shown(error.message)}\n`);
    return 2;
  }
  // A bad setting is bad usage too: one line naming it, exit 2, as the services do.
  if (error instanceof ConfigError) {
    process.stderr.write(`crawler: ${shown(error.message)}\n`);
    return 2;
  }
  if (error instanceof CrawlerError) {
    process.stderr.write(`crawler: ${shown(error.message)} [${error.code}]\n`);
    return 1;
  }
  process.stderr.write(`crawler: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
  return 1;
}
