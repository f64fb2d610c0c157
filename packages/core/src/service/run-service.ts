import { ConfigError, errorMessage } from '../errors.js';
import { createLogger, type Logger } from '../log/logger.js';
import { loadRuntimeConfig, type RuntimeConfig } from './runtime-settings.js';
import { startHealthServer } from './health-server.js';
import { serviceUsage } from './service-usage.js';
import { startTracing } from '../tracing/start-tracing.js';
import { loadTracingConfig, type TracingConfig } from '../tracing/tracing-settings.js';
import type { SettingsSection } from './settings-section.js';

export interface RunningService {
  /** Counters and state shown on /healthz. */
  details?(): Record<string, unknown>;
  /** Prometheus text for /metrics. */
  metrics?(): Promise<string>;
  stop(): Promise<void>;
}

export interface ServiceDefinition {
  name: string;
  /** The service's settings besides the runtime ones: its own and those of the adapters it may use. */
  settings: readonly SettingsSection[];
  start(runtime: RuntimeConfig, logger: Logger): Promise<RunningService>;
}

/**
 * The body of every service's main.ts: answer --help, check every setting (a bad one exits 2 with a
 * message naming it, before anything listens or connects), start, serve /healthz and /readyz, and
 * on SIGTERM or SIGINT stop gracefully and exit 0.
 */
export async function runService(
  definition: ServiceDefinition,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  const { name, settings, start } = definition;
  // Nothing is listening or connected yet, so returning with an exit code ends the process.
  if (argv.some((arg) => arg === '--help' || arg === '-h')) {
    process.stdout.write(serviceUsage(name, settings));
    process.exitCode = 0;
    return;
  }
  if (argv.length > 0) {
    process.stderr.write(
      `crawler-${name}: unknown argument "${argv[0]}"; settings come from the environment and CRAWLER_CONFIG (see --help)\n`,
    );
    process.exitCode = 2;
    return;
  }
  let runtime: RuntimeConfig;
  let tracingConfig: TracingConfig;
  try {
    runtime = loadRuntimeConfig();
    tracingConfig = loadTracingConfig();
    for (const section of settings) section.check(runtime, process.env);
  } catch (error) {
    const bad = error instanceof ConfigError;
    const message = bad ? errorMessage(error) : ((error as Error).stack ?? String(error));
    // A ConfigError starts with its group's name ("kafka: ..."); the service's own needs no second prefix.
    process.stderr.write(message.startsWith(`${name}: `) ? `${message}\n` : `${name}: ${message}\n`);
    process.exitCode = bad ? 2 : 1;
    return;
  }
  const logger = createLogger(name, { level: runtime.logLevel });
  const tracing = await startTracing(tracingConfig, name);
  if (tracingConfig.endpoint) logger.info({ endpoint: tracingConfig.endpoint }, 'exporting traces over OTLP');
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
    await tracing.shutdown();
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
      await tracing.shutdown();
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
