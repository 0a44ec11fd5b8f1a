import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The header that marks the server's requests of its own routes (`app.inject`). */
const internalHeader = 'x-adaptive-internal';
/** Known only to this process: a client that sends the header cannot pass for the server. */
const internalValue = randomBytes(16).toString('hex');

/**
 * Headers for a request the server makes of its own routes (the health check's readiness probe): the
 * request inspector leaves such requests out ({@link isInternalRequest}).
 */
export function internalRequestHeaders(): Record<string, string> {
  return { [internalHeader]: internalValue };
}

/** True for a request made with {@link internalRequestHeaders} by this process. */
export function isInternalRequest(headers: IncomingHttpHeaders): boolean {
  return headers[internalHeader] === internalValue;
}
