import pino from 'pino';
import { ConfigError } from '../errors.js';
import { escapeJsonControlCharacters } from './control-characters.js';
import { createSecretScrubber, secretValuesOf } from './secret-scrubber.js';

export { redactUrl } from './secret-scrubber.js';
export { escapeControlCharacters, escapeJsonControlCharacters } from './control-characters.js';

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

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Structured JSON logs; components take a child logger with their name. Besides fields redacted by
 * name, every finished line is scrubbed of URL credentials and of the environment's secret values,
 * so a secret inside an error message or a stack trace is hidden too, and control characters that
 * JSON leaves raw (C1, bidi overrides) are escaped, so a page's title cannot drive a log viewer.
 */
export function createLogger(service: string, options: LoggerOptions = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  if (!LEVELS.includes(level))
    throw new ConfigError(`invalid setting LOG_LEVEL = ${JSON.stringify(level)}: must be one of ${LEVELS.join(', ')}`);
  const destination = options.destination ?? pino.destination({ fd: 2, sync: false });
  const scrub = createSecretScrubber(options.secrets ?? secretValuesOf(process.env));
  return pino(
    {
      name: service,
      level,
      redact: { paths: REDACT, censor: '[redacted]' },
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    scrubbing(destination, (line) => escapeJsonControlCharacters(scrub(line))),
  );
}

/** A logger that drops everything, for tests and quiet CLI runs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
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
