import { writeFile } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { parseCliArgs, USAGE } from './cli-args.js';
import { startTestWeb, type TestWeb } from './test-web.js';

export interface CliStreams {
  stdin: Readable;
  stdout: Writable;
}

/**
 * Runs the command line: prints usage, or starts the web, writes the truth file, announces hosts
 * and seeds as one JSON line and obeys "round <n>" lines. Resolves with the running web, if any.
 */
export async function runCli(argv: string[], streams: CliStreams): Promise<TestWeb | undefined> {
  const args = parseCliArgs(argv);
  if (args.help) {
    streams.stdout.write(`${USAGE}\n`);
    return undefined;
  }
  const web = await startTestWeb(args.options);
  const saveTruth = async () => {
    if (args.truthFile !== undefined)
      await writeFile(args.truthFile, `${JSON.stringify(web.groundTruth(), null, 2)}\n`);
  };
  await saveTruth();
  streams.stdout.write(`${JSON.stringify({ hosts: web.hosts, seeds: web.seeds })}\n`);

  // Rounds are switched in order, one line at a time, so truth files are never written concurrently.
  let pending = Promise.resolve();
  createInterface({ input: streams.stdin }).on('line', (line) => {
    const match = /^\s*round\s+(\d+)\s*$/.exec(line);
    if (!match) return;
    pending = pending.then(async () => {
      web.setRound(Number(match[1]));
      await saveTruth();
      streams.stdout.write(`${JSON.stringify({ round: web.round })}\n`);
    });
  });
  return web;
}
