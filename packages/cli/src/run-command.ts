import { ConfigError, CrawlerError } from '@crawler/core';
import type { CliCommand } from './cli.js';
import { checkSettings } from './setting-groups.js';
import { shown } from './terminal-text.js';
import { UsageError } from './usage-error.js';

/** Runs one command of the table and returns its exit code; every failure becomes one line on stderr. */
export async function runCommand(name: string, command: CliCommand | undefined, argv: string[]): Promise<number> {
  try {
    if (!command) throw new UsageError(`crawler: unknown command "${name}" (see crawler --help)`);
    // Help needs no settings; everything else starts from settings known to be good.
    if (!argv.some((arg) => arg === '--help' || arg === '-h')) checkSettings(process.env);
    const loaded = await command.load();
    return await loaded.run(argv);
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
