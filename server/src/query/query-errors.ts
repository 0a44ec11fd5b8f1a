import { HttpError } from '../core/errors.js';

/**
 * The errors of the query service, each `{detail}` (plus `position`, `line`, `column` for syntax
 * errors) with the status DESIGN.md §6 gives it.
 */
export const queryErrors = {
  badQuery: (detail: string, extra: Record<string, unknown> = {}) => new HttpError(400, detail, 'QUERY_INVALID', extra),
  notFound: (detail: string) => new HttpError(404, detail, 'QUERY_NOT_FOUND'),
  tooLarge: (length: number, limit: number) =>
    new HttpError(413, `The query is ${length} characters long; the limit is ${limit}`, 'QUERY_TOO_LARGE'),
  conflict: (detail: string, status: string) => new HttpError(409, detail, 'QUERY_CONFLICT', { status }),
  busy: (detail: string) => new HttpError(503, detail, 'QUERY_BUSY'),
  jobStoreUnavailable: (detail: string) => new HttpError(503, detail, 'QUERY_JOB_STORE_UNAVAILABLE'),
  sourceUnavailable: (detail: string) => new HttpError(502, detail, 'QUERY_SOURCE_UNAVAILABLE'),
  timeout: (timeoutMs: number, detail = `The query did not finish within ${timeoutMs} ms and was stopped`) =>
    new HttpError(504, detail, 'QUERY_TIMEOUT'),
  cancelled: () => new HttpError(409, 'The query was cancelled', 'QUERY_CANCELLED', { status: 'CANCELLED' }),
};

/** The string index of a UTF-8 byte offset (DuckDB reports positions in bytes). */
export function charOffset(text: string, byteOffset: number): number {
  return Buffer.from(text, 'utf8').subarray(0, Math.max(0, byteOffset)).toString('utf8').length;
}
