import pino from 'pino';
import type { WorkbenchLogLine } from '../contract/index.js';
import type { Logger } from '../core/logger.js';

const levelNames: Record<number, WorkbenchLogLine['level']> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const maxFieldsChars = 4096;
const omittedFields = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'v']);

/** Turns one JSON line written by pino into a log line for the workbench; `undefined` when it is not one. */
export function parseLogLine(line: string): WorkbenchLogLine | undefined {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (record === null || typeof record !== 'object') return undefined;
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!omittedFields.has(key)) fields[key] = value;
  const log: WorkbenchLogLine = {
    time: typeof record.time === 'number' ? record.time : Date.now(),
    level: levelNames[record.level as number] ?? 'info',
    msg: typeof record.msg === 'string' ? record.msg : '',
  };
  if (Object.keys(fields).length > 0) {
    const json = JSON.stringify(fields);
    log.fields = json.length <= maxFieldsChars ? fields : { truncated: `${json.slice(0, maxFieldsChars)}…` };
  }
  return log;
}

/**
 * Copies every line `logger` writes (and its children, which share its destination) to `onLine`,
 * without changing what the logger itself writes where. The destination is wrapped in a proxy rather
 * than replaced, so pino's multistream and transport metadata still reach the real stream.
 * Returns the function that removes the tap.
 */
export function tapLogger(logger: Logger, onLine: (line: string) => void): () => void {
  const key = pino.symbols.streamSym as unknown as keyof Logger;
  const holder = logger as unknown as Record<PropertyKey, unknown>;
  const original = holder[key] as { write(line: string): unknown };
  const write = (line: string) => {
    const result = original.write(line);
    onLine(line);
    return result;
  };
  holder[key] = new Proxy(original, {
    get(target, property) {
      if (property === 'write') return write;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, property, value) {
      return Reflect.set(target, property, value, target);
    },
  });
  return () => {
    holder[key] = original;
  };
}
