import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

/**
 * The server's logger: JSON lines when stdout is not a terminal (containers, CI), pretty output in a
 * terminal when pino-pretty is installed (it is a dev dependency, absent from production installs).
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
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
