/**
 * Checks what a Python worker tells the gateway: its ready line on stdout and the status and size of
 * each answer. The worker runs the handler's own code, which can print a line of its own before the
 * worker's, or answer with a status HTTP does not have.
 */
import type http from 'node:http';
import { Transform } from 'node:stream';
import { httpError, type HttpError } from '../../core/errors.js';

const servedMethods = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);

/** What is wrong with a ready line's `routes` and `openapi` (routes must lie under `prefix`), or `undefined`. */
export function readyProblem(message: Record<string, unknown>, prefix: string): string | undefined {
  if (message.ready !== true) return 'it is neither {ready: true, ...} nor {error}';
  const { routes, openapi } = message;
  if (!Array.isArray(routes)) return 'its routes are not a list';
  for (const [index, route] of routes.entries()) {
    const { method, path } = (route ?? {}) as Record<string, unknown>;
    if (typeof method !== 'string' || !servedMethods.has(method))
      return `routes[${index}].method is not one of ${[...servedMethods].join(', ')}`;
    if (typeof path !== 'string' || (path !== prefix && !path.startsWith(`${prefix}/`)))
      return `routes[${index}].path is not under ${prefix}`;
  }
  if (typeof openapi !== 'object' || openapi === null || Array.isArray(openapi)) return 'its openapi is not an object';
  return undefined;
}

/**
 * Why the gateway cannot pass `response` on (a status outside 100-599, a Content-Length over `limit`),
 * or `undefined`. Checked before a byte of the body is read.
 */
export function responseRefusal(response: http.IncomingMessage, file: string, limit: number): HttpError | undefined {
  const status = response.statusCode ?? 0;
  if (status < 100 || status > 599)
    return httpError('HANDLER_PROTOCOL_ERROR', [file, `status ${status}, which is not an HTTP status (100 to 599)`]);
  const length = Number(response.headers['content-length'] ?? 0);
  if (length > limit) return httpError('HANDLER_RESPONSE_TOO_LARGE', [length, limit]);
  return undefined;
}

/**
 * `response`'s body, cut off past `limit` bytes: a streamed answer (no Content-Length) has sent its
 * head already, so going over ends the connection rather than answering with an error.
 */
export function limitedBody(response: http.IncomingMessage, limit: number, onOver: () => void): Transform {
  let bytes = 0;
  const limited = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes <= limit) return done(null, chunk);
      onOver();
      response.destroy();
      done(new Error(`the answer passed HANDLER_RESPONSE_LIMIT (${limit} bytes)`));
    },
  });
  response.on('error', (error) => limited.destroy(error));
  return response.pipe(limited);
}

/**
 * `response`'s whole body, or `undefined` once it passes `limit` bytes (the response is then destroyed). Read
 * before the head is sent, so that going over can still answer with an error.
 */
export async function bodyWithin(response: http.IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) {
      response.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Whether an answer is FastAPI's refusal of the request (422 `HANDLER_VALIDATION_FAILED`, from the worker's
 * handler of `RequestValidationError`): a bad request, answered before the handler's code ran, as a TypeScript
 * handler's bad request is answered by the gateway.
 */
export function isRefusedRequest(status: number, body: Buffer): boolean {
  if (status !== 422) return false;
  try {
    return (JSON.parse(body.toString('utf8')) as { code?: unknown }).code === 'HANDLER_VALIDATION_FAILED';
  } catch {
    return false;
  }
}
