import pino from 'pino';

export type Logger = pino.Logger;

/** Field names whose values never reach a log line. */
const REDACT = [
  'password', 'token', 'secret', 'authorization', 'apiKey', 'sasl', 'credentials',
  '*.password', '*.token', '*.secret', '*.authorization', '*.apiKey', '*.sasl', '*.credentials',
  'headers.authorization', 'headers.cookie', 'headers["set-cookie"]',
];

export interface LoggerOptions {
  level?: string;
  /** Where lines go; defaults to stderr so stdout stays free for command output. */
  destination?: pino.DestinationStream;
}

/** Structured JSON logs; components take a child logger with their name. */
export function createLogger(service: string, options: LoggerOptions = {}): Logger {
  return pino(
    {
      name: service,
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      redact: { paths: REDACT, censor: '[redacted]' },
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? pino.destination({ fd: 2, sync: false }),
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
