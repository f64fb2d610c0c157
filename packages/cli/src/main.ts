#!/usr/bin/env node
import { runCli } from './cli.js';

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // The command is over: a handle a library left open (a timer, a worker thread) must not keep the process alive.
  setTimeout(() => process.exit(), 2000).unref();
});
