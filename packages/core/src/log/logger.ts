import pino from 'pino';
import { createSecretScrubber, secretValuesOf } from './secret-scrubber.js';

export type Logger = pino.Logger;

/** Field names whose values never reach a log line. */
const REDACT = [
  'password',
  'token',
  'secret',
  'authorization',
  'apiKey',
  'sasl',
  'credentials',
  '*.password',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.apiKey',
  '*.sasl',
  '*.credentials',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
];

export interface LoggerOptions {
  level?: string;
  /** Where lines go; defaults to stderr so stdout stays free for command output. */
  destination?: pino.DestinationStream;
  /** Values never written, anywhere in a line; defaults to the secrets found in the environment. */
  secrets?: readonly string[];
}

/**
 * Structured JSON logs; components take a child logger with their name. Besides fields redacted by
 * name, every finished line is scrubbed of URL credentials and of the environment's secret values,
 * so a secret inside an error message or a stack trace is hidden too.
 */
export function createLogger(service: string, options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? pino.destination({ fd: 2, sync: false });
  return pino(
    {
      name: service,
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      redact: { paths: REDACT, censor: '[redacted]' },
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    scrubbing(destination, createSecretScrubber(options.secrets ?? secretValuesOf(process.env))),
  );
}

/** A logger that drops everything, for tests and quiet CLI runs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** user:pass@ in URLs (proxies, brokers) is replaced before a URL is logged. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^/@\s]*@/, '//[redacted]@');
}

/** The destination, with every line passed through the scrubber first; flushing reaches the real stream. */
function scrubbing(destination: pino.DestinationStream, scrub: (line: string) => string): pino.DestinationStream {
  const flushable = destination as pino.DestinationStream & {
    flush?(callback?: (error?: Error) => void): void;
    flushSync?(): void;
  };
  return {
    write: (line: string) => destination.write(scrub(line)),
    flush: (callback?: (error?: Error) => void) => (flushable.flush ? flushable.flush(callback) : callback?.()),
    flushSync: () => flushable.flushSync?.(),
  } as pino.DestinationStream;
}
