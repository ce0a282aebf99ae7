import { pino, type Logger as PinoLogger, type LoggerOptions } from 'pino';

export type Logger = PinoLogger;

/**
 * Paths whose values never reach a log line. Keys are matched anywhere a request, a config
 * object or an error might carry them; add to this list rather than redacting ad hoc.
 */
export const REDACTED_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-forge-signature-256"]',
  'headers.authorization',
  '*.token',
  '*.password',
  '*.secret',
  '*.systemToken',
  '*.privateKey',
  '*.webhookSecret',
  '*.accessToken',
  '*.authorization',
  'token',
  'password',
  'secret',
  'systemToken',
];

export interface LoggerSettings {
  readonly level?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  readonly destination?: NodeJS.WritableStream;
}

export function createRootLogger(settings: LoggerSettings = {}): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    base: { service: 'svc' },
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return settings.destination ? pino(options, settings.destination) : pino(options);
}

/** A logger that drops everything (tests, CLI commands that only print results). */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
