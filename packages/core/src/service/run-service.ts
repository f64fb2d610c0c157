import { ConfigError, errorMessage } from '../errors.js';
import { createLogger, type Logger } from '../log/logger.js';
import { loadRuntimeConfig, type RuntimeConfig } from './runtime-settings.js';
import { startHealthServer } from './health-server.js';

export interface RunningService {
  /** Counters and state shown on /healthz. */
  details?(): Record<string, unknown>;
  /** Prometheus text for /metrics. */
  metrics?(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The body of every service's main.ts: load settings (a bad one exits 2 with a message naming it),
 * start, serve /healthz and /readyz, and on SIGTERM or SIGINT stop gracefully and exit 0.
 */
export async function runService(name: string, start: (runtime: RuntimeConfig, logger: Logger) => Promise<RunningService>): Promise<void> {
  let runtime: RuntimeConfig;
  try {
    runtime = loadRuntimeConfig();
  } catch (error) {
    process.stderr.write(`${name}: ${errorMessage(error)}\n`);
    process.exit(2);
  }
  const logger = createLogger(name, { level: runtime.logLevel });
  let service: RunningService | null = null;
  let stopping = false;
  const health = await startHealthServer(runtime.healthHost, runtime.healthPort, {
    live: () => true,
    ready: () => service !== null && !stopping,
    details: () => ({ service: name, ...service?.details?.() }),
    metrics: async () => (service?.metrics ? service.metrics() : ''),
  });
  logger.info({ healthPort: health.port }, 'health endpoints listening');
  try {
    service = await start(runtime, logger);
  } catch (error) {
    const bad = error instanceof ConfigError;
    logger.fatal({ err: errorMessage(error) }, bad ? 'invalid configuration' : 'could not start');
    // A ConfigError already names the service and the setting.
    process.stderr.write(bad ? `${errorMessage(error)}\n` : `${name}: ${errorMessage(error)}\n`);
    await health.close();
    logger.flush();
    process.exit(bad ? 2 : 1);
  }
  logger.info('started');
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: no new work, finishing or handing back in-flight work, committing');
    try {
      await service!.stop();
      logger.info('stopped cleanly');
      process.exitCode = 0;
    } catch (error) {
      logger.error({ err: errorMessage(error) }, 'stop failed');
      process.exitCode = 1;
    } finally {
      await health.close();
      logger.flush();
      // Client libraries may leave timers behind; they must not keep a stopped service alive.
      setTimeout(() => process.exit(), 2000).unref();
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
