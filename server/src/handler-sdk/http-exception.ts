import { chosenStatusRange, HttpError } from '../core/errors.js';

/**
 * An error a handler throws to answer with an HTTP error status and the body
 * `{"detail": detail, "code": "HANDLER_HTTP_EXCEPTION"}`.
 *
 * ```ts
 * throw new HTTPException(404, `Book ${params.bookId} not found`);
 * ```
 *
 * Any other error thrown by a handler becomes `500 {"detail": "Internal error", "code": "INTERNAL"}`;
 * its stack is logged, never sent.
 *
 * The SDK's name for the server's internal `HttpError` (FastAPI and Hono call it `HTTPException`): the
 * one kind of it whose status the caller picks, and whose code is always `HANDLER_HTTP_EXCEPTION`, so a
 * client can tell a handler's own refusal from the gateway's (docs/errors.md).
 */
export class HTTPException extends HttpError {
  /**
   * @param status an HTTP error status, 400 to 599
   * @param detail the message sent to the caller as `detail`
   * @throws RangeError when `status` is not an integer from 400 to 599
   */
  constructor(status: number, detail: string) {
    const { min, max } = chosenStatusRange;
    if (!Number.isInteger(status) || status < min || status > max) {
      throw new RangeError(`HTTPException status must be an integer from ${min} to ${max}, got ${status}`);
    }
    super(status, String(detail), 'HANDLER_HTTP_EXCEPTION');
    this.name = 'HTTPException';
  }
}
