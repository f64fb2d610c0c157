import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '@crawler/core/free-port';
import { registerCleanup } from '../abort-cleanup.js';
import { repoRoot } from '../stack/stack-env.js';

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  ready(): Promise<boolean>;
  stop(): Promise<number | null>;
  logTail(): string;
}

/** One built service (`services/<name>/dist/main.js`) as its own OS process, as deployed. */
export async function startService(name: string, env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(repoRoot, 'services', name, 'dist', 'main.js')], {
    env: { ...process.env, ...env, CRAWLER_HEALTH_PORT: String(port), CRAWLER_HEALTH_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const unregister = registerCleanup(() => child.kill('SIGKILL'));
  void exited.then(unregister);
  return {
    name,
    child,
    async ready() {
      try {
        return (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
      } catch {
        return false;
      }
    },
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    logTail: () => log,
  };
}

export async function waitUntilReady(service: ServiceProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await service.ready())) {
    if (service.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${service.name} did not become ready:\n${service.logTail()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
