import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { registerCleanup } from '../abort-cleanup.js';
import { meterProcesses } from '../process-meter.js';
import type { PeerConfig, PeerDone } from './peer-protocol.js';

export interface PeerRun {
  done: PeerDone;
  /** Empty when the runner only counted. */
  okUrls: string[];
  /** The URLs the crawler kept, when it keeps pages its own way; null when it wrote none (this crawler). */
  storedUrls: string[] | null;
  /** CPU seconds of the crawler's own process(es) from `go` to `done`. */
  cpuSeconds: number;
  peakRssMb: number;
  /** CPU seconds of the shared stack services (Kafka, Elasticsearch, HBase, Redis) meanwhile, if metered. */
  stackCpuSeconds?: number;
}

export type PeerSettings = Omit<PeerConfig, 'okFile' | 'pagesFile' | 'storedFile'> & { pages: string[] };

/**
 * Node's arguments for a built checkout's crawler runner, under `--cpu-prof` into `profileDir` when
 * given (A/B benches). Absolute: the runner starts in a scratch folder, where `../ab-a` means nothing.
 */
export function checkoutRunnerArgs(checkout: string, profileDir: string | null): string[] {
  const runner = resolve(checkout, 'bench/dist/peers/crawler-runner.js');
  return profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, runner] : [runner];
}

/**
 * Runs one crawler under test as a child process through the peer protocol and meters it from
 * outside (/proc), the same way whatever language it is written in. `stackPids` are metered
 * alongside, reported apart.
 */
export async function runPeerProcess(
  command: string,
  args: string[],
  settings: PeerSettings,
  options: { env?: NodeJS.ProcessEnv; stackPids?: number[] } = {},
): Promise<PeerRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-peer-'));
  const { pages, ...rest } = settings;
  const config: PeerConfig = {
    ...rest,
    pagesFile: join(scratch, 'pages.txt'),
    okFile: join(scratch, 'ok.txt'),
    storedFile: join(scratch, 'stored.txt'),
  };
  writeFileSync(config.pagesFile, pages.join('\n'));
  writeFileSync(join(scratch, 'config.json'), JSON.stringify(config));
  // The scratch folder is the working directory too, so nothing a peer writes lands in the repository.
  const child = spawn(command, [...args, join(scratch, 'config.json')], {
    cwd: scratch,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const unregister = registerCleanup(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const killTimer = setTimeout(() => child.kill('SIGKILL'), settings.timeLimitMs + 120_000);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextEvent = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const line = await Promise.race([lines.next(), exited.then(() => ({ done: true as const, value: undefined }))]);
      if (line.done) throw new Error(`${command} ${args.join(' ')} exited early:\n${stderr}`);
      // Libraries may print to stdout; only protocol lines are JSON objects with an event.
      if (line.value.startsWith('{"event"')) return JSON.parse(line.value) as Record<string, unknown>;
    }
  };
  try {
    await nextEvent();
    const meter = meterProcesses([child.pid!]);
    const stackMeter = options.stackPids ? meterProcesses(options.stackPids, 1000) : null;
    child.stdin!.write('go\n');
    const done = (await nextEvent()) as unknown as PeerDone;
    const reading = meter.stop();
    const stack = stackMeter?.stop();
    child.stdin!.write('exit\n');
    await exited;
    const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);
    return {
      done,
      okUrls: existsSync(config.okFile) ? lines(config.okFile) : [],
      storedUrls: existsSync(config.storedFile) ? lines(config.storedFile) : null,
      cpuSeconds: done.child?.cpuSeconds ?? reading.cpuSeconds,
      peakRssMb: done.child?.peakRssMb ?? reading.peakRssMb,
      stackCpuSeconds: stack?.cpuSeconds,
    };
  } finally {
    unregister();
    clearTimeout(killTimer);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  }
}
