/**
 * Checks every message a handler process sends before the gateway acts on it. The process runs the
 * handler's own code, which can write frames onto its channel itself: a forged message must not carry an answer
 * past the response limit, a status HTTP does not have, or a body the catalogue does not describe.
 */
import { errorCatalogue } from '../../core/errors.js';
import type { FromHandler } from './handler-protocol.js';

/** A message that is not one of {@link FromHandler}: what is wrong, and the call it names, when it names one. */
export interface ProtocolViolation {
  type: 'invalid';
  problem: string;
  id?: number;
}

const methods = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);
const loadFailures = new Set(['threw', 'bad-schema', 'no-router', 'not-a-router']);
/** Error fields that, in `extra`, would replace the body's own `detail` and `code`. */
const reservedExtra = ['detail', 'code'];

type Fields = Record<string, unknown>;
/** What is wrong with `message`, or `undefined` when it is right. */
type Check = (message: Fields, responseLimit: number) => string | undefined;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isCallId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function errorDescriptionProblem(error: unknown): string | undefined {
  if (!isObject(error) || !isString(error.name) || !isString(error.message)) return 'error is not {name, message}';
  if (error.stack !== undefined && !isString(error.stack)) return 'error.stack is not a string';
  return undefined;
}

function routeProblem(route: unknown, index: number): string | undefined {
  if (!isObject(route)) return `routes[${index}] is not an object`;
  if (!isString(route.method) || !methods.has(route.method)) return `routes[${index}].method is not a served method`;
  if (!isString(route.path) || !route.path.startsWith('/')) return `routes[${index}].path does not start with /`;
  if (!Array.isArray(route.paramNames) || !route.paramNames.every(isString))
    return `routes[${index}].paramNames is not a list of names`;
  return isObject(route.schema) ? undefined : `routes[${index}].schema is not an object`;
}

/** The UTF-8 size of `text` when it may be over `limit`; counted only when the UTF-16 length leaves doubt. */
function overLimit(text: string, limit: number): number | undefined {
  if (text.length * 3 <= limit) return undefined;
  const bytes = Buffer.byteLength(text);
  return bytes > limit ? bytes : undefined;
}

const payloadOverLimit = (bytes: number, limit: number) => `payload of ${bytes} bytes is over the ${limit}-byte limit`;

function httpErrorProblem(message: Fields): string | undefined {
  const { status, detail, code, extra } = message;
  if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599)
    return `status ${JSON.stringify(status)} is not an HTTP status (an integer from 100 to 599)`;
  if (!isString(detail)) return 'detail is not a string';
  if (!isString(code) || !Object.hasOwn(errorCatalogue, code)) return `code ${JSON.stringify(code)} is not catalogued`;
  if (!isObject(extra)) return 'extra is not an object';
  const reserved = reservedExtra.find((name) => Object.hasOwn(extra, name));
  return reserved ? `extra carries ${reserved}` : undefined;
}

const checks: Record<FromHandler['type'], Check> = {
  booted: () => undefined,
  pong: () => undefined,
  ready: (message) => {
    if (!Array.isArray(message.routes)) return 'routes is not a list';
    for (const [index, route] of message.routes.entries()) {
      const problem = routeProblem(route, index);
      if (problem) return problem;
    }
    return undefined;
  },
  'load-failed': (message) => {
    if (!isString(message.reason) || !loadFailures.has(message.reason)) return 'reason is not a known load failure';
    return message.reason === 'threw' || message.reason === 'bad-schema'
      ? errorDescriptionProblem(message.error)
      : undefined;
  },
  result: (message, responseLimit) => {
    if (message.payload === undefined) return undefined;
    if (!isString(message.payload)) return 'payload is not JSON text';
    const bytes = overLimit(message.payload, responseLimit);
    return bytes === undefined ? undefined : payloadOverLimit(bytes, responseLimit);
  },
  'http-error': httpErrorProblem,
  failed: (message) => errorDescriptionProblem(message.error),
  'too-large': (message) => (Number.isSafeInteger(message.size) ? undefined : 'size is not a byte count'),
  'stray-error': (message) => errorDescriptionProblem(message.error),
};
/** The messages that answer one call and must name it. */
const callAnswers = new Set(['result', 'http-error', 'failed', 'too-large']);

/** The violation of a result frame of `bytes` over the response limit (its bytes were skipped, never kept). */
export function oversizedResult(id: number, bytes: number, responseLimit: number): ProtocolViolation {
  return {
    type: 'invalid',
    problem: `a "result" message whose ${payloadOverLimit(bytes, responseLimit)}`,
    ...(isCallId(id) ? { id } : {}),
  };
}

/** `raw` as a {@link FromHandler} when it is one, else a {@link ProtocolViolation} saying why. */
export function checkedMessage(raw: unknown, responseLimit: number): FromHandler | ProtocolViolation {
  if (!isObject(raw)) return { type: 'invalid', problem: 'a message that is not an object' };
  const type = raw.type;
  const check = isString(type) && Object.hasOwn(checks, type) ? checks[type as FromHandler['type']] : undefined;
  const id = isCallId(raw.id) ? raw.id : undefined;
  const named = (problem: string): ProtocolViolation => ({
    type: 'invalid',
    problem: `a ${isString(type) ? JSON.stringify(type.slice(0, 40)) : 'typeless'} message whose ${problem}`,
    ...(id === undefined ? {} : { id }),
  });
  if (!check) return named('type is unknown');
  if (callAnswers.has(type as string) && id === undefined) return named('id is not a call id');
  const problem = check(raw, responseLimit);
  return problem ? named(problem) : (raw as unknown as FromHandler);
}
