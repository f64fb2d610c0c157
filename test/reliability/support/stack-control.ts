import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CrawlerError } from '@crawler/core';
import { localStackAddresses, repoRoot, stackAddresses, type StackAddresses } from './stack-env.js';

const run = promisify(execFile);

export type StackComponent = 'kafka' | 'elasticsearch' | 'hbase' | 'redis';

/** The addresses a component serves: the tests' and the controlled instance's must agree. */
const SERVES: Record<StackComponent, (keyof StackAddresses)[]> = {
  kafka: ['KAFKA_BROKERS'],
  elasticsearch: ['ELASTICSEARCH_URL'],
  hbase: ['HBASE_REST_URL', 'HBASE_ZOOKEEPER_QUORUM'],
  redis: ['REDIS_URL'],
};

/** The stack the tests use is not the one `deploy/local/stack.sh` would stop: stopping it would hit someone else's. */
export class StackMismatchError extends CrawlerError {
  constructor(message: string) {
    super('RELIABILITY_STACK_MISMATCH', message);
  }
}

/** `stack.sh stop|start <component>` failed. */
export class StackControlError extends CrawlerError {
  constructor(message: string, cause: unknown) {
    super('RELIABILITY_STACK_CONTROL', message, { cause });
  }
}

export function checkSameStack(component: StackComponent): void {
  const used = stackAddresses();
  const controlled = localStackAddresses();
  for (const name of SERVES[component]) {
    if (used[name] !== controlled[name]) {
      throw new StackMismatchError(
        `${name}=${used[name]} but deploy/local/stack.sh (CRAWLER_STACK_PORT_OFFSET=${process.env.CRAWLER_STACK_PORT_OFFSET ?? 0}) controls ${controlled[name]}: ` +
          'set CRAWLER_STACK_PORT_OFFSET (and CRAWLER_STACK_DIR) to the instance these addresses belong to',
      );
    }
  }
}

async function stackCommand(action: 'stop' | 'start', component: StackComponent): Promise<void> {
  try {
    await run('bash', [`${repoRoot}deploy/local/stack.sh`, action, component], { env: process.env, timeout: 240_000 });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new StackControlError(
      `stack.sh ${action} ${component} failed: ${stderr?.trim().split('\n').slice(-5).join('\n') ?? String(error)}`,
      error,
    );
  }
}

/**
 * Stops a component of the stack, waits `outageMs`, and starts it again, whatever happens in
 * between: `whileDown` runs during the outage and its failure still ends with the start.
 */
export async function withOutage(
  component: StackComponent,
  outageMs: number,
  whileDown: () => Promise<void> = async () => undefined,
): Promise<{ downMs: number; controlMs: number }> {
  checkSameStack(component);
  const began = Date.now();
  await stackCommand('stop', component);
  const stopped = Date.now();
  let started: number;
  try {
    await Promise.all([whileDown(), new Promise((resolve) => setTimeout(resolve, outageMs))]);
  } finally {
    started = Date.now();
    await stackCommand('start', component);
  }
  // Down from the end of the stop to the end of the start; control = the scripts' own time.
  return { downMs: Date.now() - stopped, controlMs: stopped - began + Date.now() - started };
}

/** Starts a component that a failed test may have left stopped; a no-op when it runs. */
export async function ensureRunning(component: StackComponent): Promise<void> {
  checkSameStack(component);
  await stackCommand('start', component);
}
