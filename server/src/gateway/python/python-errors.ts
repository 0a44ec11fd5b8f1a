/**
 * The header that gives a Python worker the gateway's id of the request it forwards (Fastify's `request.id`);
 * a client's header of that name is dropped, so a client cannot claim another request's id.
 */
export const requestIdHeader = 'x-adaptive-request-id';

/** The worker's mark on a 500 whose exception it reported on stderr; the client never sees it. */
export const errorReportedHeader = 'x-adaptive-error-reported';

/** How the worker's report line starts: `json.dumps({"handler_error": {...}})`. */
const reportStart = '{"handler_error":';

/**
 * The longest report line parsed. The worker bounds its own (2,000 characters of message, 32,000 of
 * traceback, at most six characters each once escaped); a longer line is not the worker's.
 */
export const maxReportChars = 256 * 1024;

/** A handler's exception as its worker reported it on stderr. */
export interface HandlerErrorReport {
  /** The gateway's id of the request it failed (what the worker got in {@link requestIdHeader}). */
  requestId: string;
  /** The exception: `name` its Python type, `stack` Python's traceback text. */
  error: Error;
}

/**
 * The report of a handler's exception a Python worker's stderr line carries:
 * `{"handler_error": {"request_id", "type", "message", "traceback"}}`, all strings. `undefined` for any
 * other line, whatever a handler prints: not JSON, another shape, a wrong type, or too long.
 */
export function handlerErrorOf(line: string): HandlerErrorReport | undefined {
  if (!line.startsWith(reportStart) || line.length > maxReportChars) return undefined;
  let report: unknown;
  try {
    report = (JSON.parse(line) as { handler_error?: unknown }).handler_error;
  } catch {
    return undefined;
  }
  if (report === null || typeof report !== 'object') return undefined;
  const { request_id: requestId, type, message, traceback } = report as Record<string, unknown>;
  if (typeof requestId !== 'string' || typeof type !== 'string') return undefined;
  if (typeof message !== 'string' || typeof traceback !== 'string') return undefined;
  const error = new Error(message);
  error.name = type;
  error.stack = traceback;
  return { requestId, error };
}
