/** Every error body: `detail` for people, `code` for programs (docs/errors.md lists every code). */
export interface ErrorBody {
  /** Words for people (a Python handler's HANDLER_VALIDATION_FAILED sends FastAPI's list of errors instead). */
  detail: string;
  /** The catalogue code (server/src/core/errors.ts), for example `QUERY_TIMEOUT` or `WB_EXISTS`. */
  code: string;
  /** Request validation failures (VALIDATION_FAILED): one entry per fault. */
  errors?: Array<{ in: string; name: string; message: string }>;
  /** Where a statement's syntax error is (QUERY_INVALID): character offset, 1-based line and column. */
  position?: number;
  line?: number;
  column?: number;
  /** The status of an async query whose results are asked for too early (QUERY_NOT_COMPLETED). */
  status?: string;
}
