#!/usr/bin/env node
import { CrawlerError } from '@crawler/core';
import { demoCommand, demoHelp } from './commands/demo.js';
import { runCommand, runHelp } from './commands/run.js';
import { UsageError } from './usage-error.js';

const commands: Record<string, { summary: string; help: string; run: (argv: string[]) => Promise<number> }> = {
  run: { summary: 'crawl from seeds in one process, no servers needed', help: runHelp, run: runCommand },
  demo: { summary: 'start the local test web, crawl it and check the result', help: demoHelp, run: demoCommand },
};

const usage = `Usage: crawler <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
  .join('\n')}

Run "crawler <command> --help" for a command's options.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage}\n`);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) throw new UsageError(`crawler: unknown command "${name}" (see crawler --help)`);
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof CrawlerError) {
      process.stderr.write(`crawler: ${error.message} [${error.code}]\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`crawler: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
