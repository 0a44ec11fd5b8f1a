import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

/**
 * The server's logger: JSON lines when stdout is not a terminal (containers, CI), pretty output in a
 * terminal when pino-pretty is installed (it is a dev dependency, absent from production installs).
 * `context`: fields every line gets from where it is logged (the trace id of the request being served).
 */
export function createLogger(
  level: LogLevel,
  destination?: pino.DestinationStream,
  context?: () => Record<string, unknown>,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    ...(context ? { mixin: context } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.token', '*.password'],
      censor: '[redacted]',
    },
  };
  if (destination) return pino(options, destination);
  if (process.stdout.isTTY) {
    try {
      return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true } } });
    } catch {
      // pino-pretty is not installed: fall back to JSON lines.
    }
  }
  return pino(options);
}
