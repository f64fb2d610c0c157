import { ConfigError, CrawlerError } from '@crawler/core';
import { adminCommand, adminHelp } from './commands/admin.js';
import { checkCommand, checkHelp } from './commands/check.js';
import { demoCommand, demoHelp } from './commands/demo.js';
import { dlqCommand, dlqHelp } from './commands/dlq.js';
import { errorsCommand, errorsHelp } from './commands/errors.js';
import { lagCommand, lagHelp } from './commands/lag.js';
import { pageCommand, pageHelp } from './commands/page.js';
import { renderCommand, renderHelp } from './commands/render.js';
import { runCommand, runHelp } from './commands/run.js';
import { statusCommand, statusHelp } from './commands/status.js';
import { tapCommand, tapHelp } from './commands/tap.js';
import { UsageError } from './usage-error.js';

interface Command {
  summary: string;
  help: string;
  run(argv: string[]): Promise<number>;
}

const commands: Record<string, Command> = {
  run: { summary: 'crawl from seeds in one process, no servers needed', help: runHelp, run: runCommand },
  demo: { summary: 'start the local test web, crawl it and check the result', help: demoHelp, run: demoCommand },
  check: {
    summary: 'check a URL: robots.txt verdict, or a fetch as the fetcher does it',
    help: checkHelp,
    run: checkCommand,
  },
  admin: {
    summary: "a running scheduler's admin API: jobs, seeds, pause/resume, one URL, queue statistics",
    help: adminHelp,
    run: (argv) => adminCommand(argv),
  },
  lag: {
    summary: "consumer lag of the crawl's groups per topic and partition, with owners",
    help: lagHelp,
    run: (argv) => lagCommand(argv),
  },
  tap: {
    summary: "print a topic's records as JSON lines, decoded with schemas/",
    help: tapHelp,
    run: (argv) => tapCommand(argv),
  },
  render: {
    summary: 'fetch and render one URL as the fetcher would: route, requests, refusals, links',
    help: renderHelp,
    run: renderCommand,
  },
  status: {
    summary: 'the crawl on one screen: URLs, throughput, errors, lag, workers',
    help: statusHelp,
    run: (argv) => statusCommand(argv),
  },
  errors: {
    summary: 'failed URLs from the link base with their cause; --requeue makes them due',
    help: errorsHelp,
    run: (argv) => errorsCommand(argv),
  },
  dlq: {
    summary: 'dead letters on crawl.dlq with code and reason; replay sends them back to their topic',
    help: dlqHelp,
    run: (argv) => dlqCommand(argv),
  },
  page: {
    summary: 'read a stored page back: newest version or all, from WARC files or HBase',
    help: pageHelp,
    run: (argv) => pageCommand(argv),
  },
};

export const usage = `Usage: crawler <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
  .join('\n')}

Run "crawler <command> --help" for a command's options.`;

/** Runs one command line and returns the exit code: 0 done, 1 failed, 2 bad usage. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (!name || name === '--help' || name === '-h' || name === 'help') {
      (name ? process.stdout : process.stderr).write(`${usage}\n`);
      return name ? 0 : 2;
    }
    const command = commands[name];
    if (!command) throw new UsageError(`crawler: unknown command "${name}" (see crawler --help)`);
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    // A bad setting is bad usage too: one line naming it, exit 2, as the services do.
    if (error instanceof ConfigError) {
      process.stderr.write(`crawler: ${error.message}\n`);
      return 2;
    }
    if (error instanceof CrawlerError) {
      process.stderr.write(`crawler: ${error.message} [${error.code}]\n`);
      return 1;
    }
    process.stderr.write(`crawler: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
