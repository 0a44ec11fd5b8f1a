import pino from 'pino';
import type { WorkbenchLogLine } from '../contract/index.js';
import type { Logger } from '../core/logger.js';
import { loggedError } from './stack-frames.js';

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

/** Fields of pino's serialised error that {@link WorkbenchLogLine.error} carries instead. */
const errorParts = new Set(['name', 'type', 'message', 'stack']);

/** The line's `err` without what its `error` carries; `undefined` when nothing else is left. */
function errRemainder(err: Record<string, unknown>): Record<string, unknown> | undefined {
  const rest = Object.fromEntries(Object.entries(err).filter(([key]) => !errorParts.has(key)));
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/**
 * Turns one JSON line written by pino into a log line for the workbench; `undefined` when it is not one.
 * An `err` field becomes {@link WorkbenchLogLine.error}, its stack parsed into frames (workspace files
 * named by their path under `workspace`), rather than one raw string that fills the size cap.
 */
export function parseLogLine(line: string, workspace?: string): WorkbenchLogLine | undefined {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (record === null || typeof record !== 'object') return undefined;
  const error = loggedError(record.err, workspace);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!omittedFields.has(key)) fields[key] = value;
  if (error) {
    const rest = errRemainder(record.err as Record<string, unknown>);
    if (rest) fields.err = rest;
    else delete fields.err;
  }
  const log: WorkbenchLogLine = {
    time: typeof record.time === 'number' ? record.time : Date.now(),
    level: levelNames[record.level as number] ?? 'info',
    msg: typeof record.msg === 'string' ? record.msg : '',
  };
  if (Object.keys(fields).length > 0) {
    const json = JSON.stringify(fields);
    // Cut fields keep the request id, which links the line to its request.
    log.fields =
      json.length <= maxFieldsChars
        ? fields
        : {
            ...(fields.reqId === undefined ? {} : { reqId: fields.reqId }),
            truncated: `${json.slice(0, maxFieldsChars)}…`,
          };
  }
  if (error) log.error = error;
  return log;
}

/** Request ids remembered with their error line: a 5xx is captured right after its error is logged. */
const maxRememberedRequests = 1000;

/** Levels whose lines tell why a request failed: an error, or a warning (a handler's 504, a restart's 503). */
const faultLevels = new Map([
  ['warn', 1],
  ['error', 2],
  ['fatal', 2],
]);

/**
 * The log lines of one server start for the workbench: numbers each line (its `id`) and remembers the
 * first error line (else warning) logged for a request (by the `reqId` field), so that a captured 5xx can name it.
 * Lines are parsed only when `publish`'s builder runs (when an event stream wants them), except the
 * rare ones that name a request.
 */
export class LogLines {
  private nextId = 1;
  private readonly errorOfRequest = new Map<string, { id: number; rank: number }>();

  constructor(
    private readonly publish: (build: () => WorkbenchLogLine) => void,
    private readonly workspace?: string,
  ) {}

  /** Takes one line the logger wrote. */
  readonly take = (text: string): void => {
    const id = this.nextId++;
    const parse = () => parseLogLine(text, this.workspace) ?? { time: Date.now(), level: 'info', msg: text.trim() };
    let parsed: WorkbenchLogLine | undefined;
    if (text.includes('"reqId"')) {
      parsed = parse();
      const reqId = parsed.fields?.reqId;
      if (typeof reqId === 'string' && faultLevels.has(parsed.level))
        this.remember(reqId, id, faultLevels.get(parsed.level)!);
    }
    this.publish(() => ({ id, ...(parsed ?? parse()) }));
  };

  /** The id of the first error line (else warning) logged for request `requestId`, while it is remembered. */
  errorLineOf(requestId: string): number | undefined {
    return this.errorOfRequest.get(requestId)?.id;
  }

  /** Keeps the first line of the highest rank: an error line wins over a warning logged before it. */
  private remember(requestId: string, id: number, rank: number): void {
    const known = this.errorOfRequest.get(requestId);
    if (known && known.rank >= rank) return;
    this.errorOfRequest.set(requestId, { id, rank });
    if (this.errorOfRequest.size > maxRememberedRequests)
      this.errorOfRequest.delete(this.errorOfRequest.keys().next().value!);
  }
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
