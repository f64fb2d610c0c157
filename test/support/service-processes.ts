import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogGroups, type Bus, type GroupDescription } from '@crawler/core';
import { freePort } from '@crawler/core/free-port';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  name: string;
  healthPort: number;
  child: ChildProcess;
  logFile: string;
  exited: Promise<number | null>;
  health(): Promise<Record<string, unknown> | null>;
  stop(): Promise<number | null>;
  logTail(lines?: number): string;
}

/** Starts one built service (`services/<service>/dist/main.js`) as its own OS process. */
export async function startServiceProcess(
  service: string,
  name: string,
  env: NodeJS.ProcessEnv,
  logDir: string,
): Promise<ServiceProcess> {
  const healthPort = await freePort();
  const logFile = join(logDir, `${name}.log`);
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [join(root, 'services', service, 'dist', 'main.js')], {
    // A shell that sourced stack-env.sh exports REDIS_CLUSTER_NODES and SCHEMA_REGISTRY_URL, which would
    // switch the services to the cluster while the test reads REDIS_URL, and to registry framing its own
    // bus cannot decode (a topic read then never ends): only the caller's env may choose either.
    env: {
      ...process.env,
      REDIS_CLUSTER_NODES: '',
      SCHEMA_REGISTRY_URL: '',
      ...env,
      CRAWLER_HEALTH_PORT: String(healthPort),
      CRAWLER_HEALTH_HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const health = async () => {
    try {
      const response = await fetch(`http://127.0.0.1:${healthPort}/readyz`);
      return response.ok ? ((await response.json()) as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };
  return {
    name,
    healthPort,
    child,
    logFile,
    exited,
    health,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    logTail(lines = 20) {
      try {
        return readFileSync(logFile, 'utf8').trim().split('\n').slice(-lines).join('\n');
      } catch {
        return '';
      }
    },
  };
}

/** Resolves once the service answers /readyz; fails with its log if it exits or the deadline passes. */
export async function waitUntilReady(service: ServiceProcess, deadline = Date.now() + 120_000): Promise<void> {
  while (!(await service.health())) {
    if (service.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${service.name} did not become ready:\n${service.logTail()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The fetchers' consumer group: its members with the partitions each owns, and each partition's offsets. */
export function describeFetcherGroup(bus: Bus): Promise<GroupDescription> {
  const fetchers = catalogGroups().find((group) => group.group === 'fetcher')!;
  return bus.describeGroup!(fetchers.group, fetchers.topics);
}

/**
 * Resolves once the fetchers' group is stable with `members` members, each owning frontier
 * partitions. Ready is not joined: a scheduler started before that may hand one fetcher every URL.
 */
export async function waitForFetcherGroup(bus: Bus, members: number, deadline = Date.now() + 60_000): Promise<void> {
  for (;;) {
    const description = await describeFetcherGroup(bus);
    if (
      description.state === 'Stable' &&
      description.members.length === members &&
      description.members.every((member) => member.partitions.length > 0)
    )
      return;
    if (Date.now() > deadline)
      throw new Error(`the fetchers' group did not settle with ${members} members: ${JSON.stringify(description)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
