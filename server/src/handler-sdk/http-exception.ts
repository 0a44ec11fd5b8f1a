import { HttpError } from '../core/errors.js';

/**
 * An error a handler throws to answer with an HTTP error status and the body `{detail}`.
 *
 * ```ts
 * throw new HTTPException(404, `Book ${params.bookId} not found`);
 * ```
 *
 * Any other error thrown by a handler becomes `500 {"detail": "Internal error"}`; its stack is logged,
 * never sent.
 */
export class HTTPException extends HttpError {
  /**
   * @param status an HTTP error status, 400 to 599
   * @param detail the message sent to the caller as `detail`
   * @throws RangeError when `status` is not an integer from 400 to 599
   */
  constructor(status: number, detail: string) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HTTPException status must be an integer from 400 to 599, got ${status}`);
    }
    super(status, String(detail), 'HTTP_EXCEPTION');
    this.name = 'HTTPException';
  }
}
