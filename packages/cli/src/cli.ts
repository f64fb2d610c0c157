import type { FlagSpec } from './parse-flags.js';

/** A command's module once loaded: its flags and how it runs. */
export interface LoadedCommand {
  /**
   * The flags parseFlags reads, by subcommand ('' for a command without any): a test drives
   * every command and subcommand listed here with bad flags, values, files and settings.
   */
  flags: Record<string, FlagSpec>;
  run(argv: string[]): Promise<number>;
}

export interface CliCommand {
  summary: string;
  /** Imports the command's module when it runs: `crawler --help` loads this table alone (0.1 s of CPU, not 0.7 s). */
  load(): Promise<LoadedCommand>;
}

export const commands: Record<string, CliCommand> = {
  run: {
    summary: 'crawl from seeds in one process, no servers needed',
    load: async () => {
      const { flagSpec, runCommand } = await import('./commands/run.js');
      return { flags: { '': flagSpec }, run: runCommand };
    },
  },
  demo: {
    summary: 'start the local test web, crawl it and check the result',
    load: async () => {
      const { flagSpec, demoCommand } = await import('./commands/demo.js');
      return { flags: { '': flagSpec }, run: demoCommand };
    },
  },
  check: {
    summary: 'check a URL: robots.txt verdict, or a fetch as the fetcher does it',
    load: async () => {
      const { checks, checkCommand } = await import('./commands/check.js');
      return {
        flags: Object.fromEntries(Object.entries(checks).map(([name, check]) => [name, check.flags])),
        run: checkCommand,
      };
    },
  },
  admin: {
    summary: "a running scheduler's admin API: jobs, seeds, pause/resume, one URL, queue statistics",
    load: async () => {
      const { adminActions, adminCommand, flagSpec } = await import('./commands/admin.js');
      return {
        flags: Object.fromEntries(adminActions.map((action) => [action, flagSpec])),
        run: (argv) => adminCommand(argv),
      };
    },
  },
  lag: {
    summary: "consumer lag of the crawl's groups per topic and partition, with owners",
    load: async () => {
      const { flagSpec, lagCommand } = await import('./commands/lag.js');
      return { flags: { '': flagSpec }, run: (argv) => lagCommand(argv) };
    },
  },
  tap: {
    summary: "print a topic's records as JSON lines, decoded with schemas/",
    load: async () => {
      const { flagSpec, tapCommand } = await import('./commands/tap.js');
      return { flags: { '': flagSpec }, run: (argv) => tapCommand(argv) };
    },
  },
  render: {
    summary: 'fetch and render one URL as the fetcher would: route, requests, refusals, links',
    load: async () => {
      const { flagSpec, renderCommand } = await import('./commands/render.js');
      return { flags: { '': flagSpec }, run: renderCommand };
    },
  },
  status: {
    summary: 'the crawl on one screen: URLs, throughput, errors, lag, workers',
    load: async () => {
      const { flagSpec, statusCommand } = await import('./commands/status.js');
      return { flags: { '': flagSpec }, run: (argv) => statusCommand(argv) };
    },
  },
  errors: {
    summary: 'failed URLs from the link base with their cause; --requeue makes them due',
    load: async () => {
      const { flagSpec, errorsCommand } = await import('./commands/errors.js');
      return { flags: { '': flagSpec }, run: (argv) => errorsCommand(argv) };
    },
  },
  footprint: {
    summary: "the crawler's footprint per site and egress network, in 10-minute windows, as sites count it",
    load: async () => {
      const { flagSpec, footprintCommand } = await import('./commands/footprint.js');
      return { flags: { '': flagSpec }, run: (argv) => footprintCommand(argv) };
    },
  },
  dlq: {
    summary: 'dead letters on crawl.dlq with code and reason; replay sends them back to their topic',
    load: async () => {
      const { flagSpec, dlqCommand } = await import('./commands/dlq.js');
      return { flags: { list: flagSpec, replay: flagSpec }, run: (argv) => dlqCommand(argv) };
    },
  },
  page: {
    summary: 'read a stored page back: newest version or all, from WARC files or HBase',
    load: async () => {
      const { flagSpec, pageCommand } = await import('./commands/page.js');
      return { flags: { get: flagSpec }, run: (argv) => pageCommand(argv) };
    },
  },
  export: {
    summary: "hand the crawl's archive over: WACZ, or WARC from HBase",
    load: async () => {
      const { flagSpec, exportCommand } = await import('./commands/export.js');
      return { flags: { wacz: flagSpec, warc: flagSpec }, run: (argv) => exportCommand(argv) };
    },
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
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    (name ? process.stdout : process.stderr).write(`${usage}\n`);
    return name ? 0 : 2;
  }
  // Settings, errors and the command's module load only now: the usage above needs none of them.
  const { runCommand } = await import('./run-command.js');
  return runCommand(name, commands[name], rest);
}
