#!/usr/bin/env node
import { runCli } from './cli.js';

// Entry point for running the synthetic web in its own process (benchmarks, manual crawls).
try {
  const web = await runCli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout });
  if (web) {
    const shutDown = () => {
      web.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGTERM', shutDown);
    process.once('SIGINT', shutDown);
  }
} catch (error) {
  process.stderr.write(`crawler-testweb: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
