import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError } from 'fastify';
import { httpError, httpErrorWithStatus, type HttpError } from './errors.js';

/**
 * The catalogued error for an error Fastify raised around a route rather than our code: a body over
 * its route's limit (`bodyLimit`, the limit that really applied), a path that is not a valid URL, an
 * unparsable body, a schema validation failure (BAD_REQUEST, Fastify's words), any other refusal
 * (REQUEST_REFUSED with Fastify's status and words). Server faults are INTERNAL.
 */
export function frameworkError(error: FastifyError, bodyLimit: number): HttpError {
  const status = error.statusCode ?? 500;
  if (status >= 500) return httpError('INTERNAL');
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return httpError('BODY_TOO_LARGE', [bodyLimit]);
  if (error.code === 'FST_ERR_BAD_URL')
    return httpError('BAD_URL', ['it holds an invalid percent-encoding or one that is not UTF-8']);
  if (
    status === 400 &&
    (error instanceof SyntaxError ||
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
  ) {
    // The same shape as every other 400 of a request body: clients read `errors`.
    const message = `is not valid JSON (${error.message})`;
    return httpError('VALIDATION_FAILED', [`body ${message}`], { errors: [{ in: 'body', name: '', message }] });
  }
  if (status === 400) return httpError('BAD_REQUEST', [error.message]);
  return httpErrorWithStatus('REQUEST_REFUSED', status, [error.message]);
}

/** Node's parser errors (`HPE_*`, or llhttp's reason where one code has several) and their wording for a client. */
const parserReasons: Record<string, string> = {
  HPE_UNEXPECTED_CONTENT_LENGTH: 'it carries both Content-Length and Transfer-Encoding',
  // llhttp raises the code above for a second Content-Length too; its reason tells them apart.
  'Duplicate Content-Length': 'it carries Content-Length more than once',
  HPE_INVALID_HEADER_TOKEN: 'a header name or value holds a character HTTP does not allow (such as NUL)',
  HPE_INVALID_TRANSFER_ENCODING: 'its Transfer-Encoding is not valid or comes with a Content-Length',
  HPE_INVALID_CONTENT_LENGTH: 'its Content-Length is not valid',
  HPE_INVALID_METHOD: 'its method is not valid',
  HPE_INVALID_URL: 'its request target is not valid',
  HPE_INVALID_VERSION: 'its HTTP version is not valid',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size of its body is not valid',
};

/** The catalogued error for a connection-level client error (Node's `clientError` event). */
export function connectionError(
  error: NodeJS.ErrnoException,
  limits: { requestTimeoutMs: number; maxHeaderSize: number },
): HttpError {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return httpError('REQUEST_TIMEOUT', [limits.requestTimeoutMs]);
  if (error.code === 'HPE_HEADER_OVERFLOW') return httpError('HEADERS_TOO_LARGE', [limits.maxHeaderSize]);
  const reason = (error as { reason?: string }).reason ?? '';
  const words = parserReasons[reason] ?? parserReasons[error.code ?? ''] ?? 'it could not be parsed';
  return httpError('MALFORMED_REQUEST', [words]);
}

/**
 * Fastify's `clientErrorHandler`: answers an error Node found before any request existed (a slow
 * client, oversized headers, a request that does not parse) with the same `{detail, code}` body as every
 * other error, then closes the connection, whose state is unknown.
 */
export function clientErrorHandler(limits: {
  requestTimeoutMs: number;
  maxHeaderSize: number;
}): (error: NodeJS.ErrnoException, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const answer = connectionError(error, limits);
    const body = JSON.stringify(answer.body());
    const head = [
      `HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  };
}
