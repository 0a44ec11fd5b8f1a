import { HttpError, httpError } from './errors.js';

/**
 * The errors features throw about their own work, free of HTTP: a caller inside the feature may catch
 * and steer by them (the NL planner tries another reading; the NL service tells a translator its SQL
 * does not run), and whatever reaches a route is answered by {@link toHttpError}, the one mapping to
 * the catalogue (`errors.ts`), used by the server's error handler.
 */

/** A question the natural-language planner cannot turn into a query; `reason` is what the asker is told. */
export class NotUnderstood extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NotUnderstood';
  }
}

/**
 * A question with a word that two schema elements fit equally well (a value found in two tables at the same
 * distance from the tables the question names); `candidates` are their `table.column` names, for the asker to pick.
 */
export class AmbiguousQuestion extends NotUnderstood {
  constructor(
    reason: string,
    readonly candidates: string[],
  ) {
    super(reason);
    this.name = 'AmbiguousQuestion';
  }
}

/** Where a parser found the fault of a statement: a character offset and its 1-based line and column. */
export interface StatementPosition {
  position: number;
  line: number;
  column: number;
}

/**
 * A statement the query engine will not run as written: it does not parse, is not one SELECT, reads the
 * server's own settings, needs more memory than its limit, or fails on its own terms (a bad cast, a
 * wrong type); `at` where the parser points, when it does.
 */
export class QueryRejected extends Error {
  constructor(
    message: string,
    readonly at?: StatementPosition,
  ) {
    super(message);
    this.name = 'QueryRejected';
  }
}

/** A statement names a source or table that does not exist. */
export class UnknownTable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownTable';
  }
}

/** A statement calls a function the engine does not have; `nearest` names close known ones, if any. */
export class UnknownFunction extends Error {
  constructor(
    readonly fn: string,
    readonly nearest: readonly string[],
  ) {
    super(
      `There is no function ${fn}()` +
        (nearest.length ? `; did you mean ${nearest.map((n) => `${n}()`).join(' or ')}?` : ''),
    );
    this.name = 'UnknownFunction';
  }
}

/** Whether an error says the statement itself does not run (bad SQL, unknown table or function), not a fault. */
export function isStatementError(error: unknown): error is QueryRejected | UnknownTable | UnknownFunction {
  return error instanceof QueryRejected || error instanceof UnknownTable || error instanceof UnknownFunction;
}

/**
 * The reason a query (or a source's table listing, then naming `source`) was aborted because it ran out of time.
 */
export class QueryTimeout extends Error {
  constructor(
    readonly timeoutMs: number,
    readonly source?: string,
  ) {
    super(`the query did not finish within ${timeoutMs} ms`);
    this.name = 'QueryTimeout';
  }
}

/** The reason a query was aborted because its job was cancelled. */
export class QueryCancelled extends Error {
  constructor() {
    super('the query was cancelled');
    this.name = 'QueryCancelled';
  }
}

/** An error reaching or reading a source: answered as 502 naming the source. */
export class SourceUnavailableError extends Error {
  constructor(
    readonly source: string,
    message: string,
    what: 'is unreachable' | 'failed' | 'did not list its tables' = 'is unreachable',
  ) {
    super(`source "${source}" ${what}: ${message}`);
    this.name = 'SourceUnavailableError';
  }
}

/**
 * The answer to an error a request ended with: an HttpError as it is, a domain error as its catalogue
 * code; undefined for anything else, a fault the caller logs and answers 500.
 */
export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof AmbiguousQuestion)
    return httpError('NL_AMBIGUOUS', [error.reason], { candidates: error.candidates });
  if (error instanceof NotUnderstood) return httpError('NL_NOT_UNDERSTOOD', [error.reason]);
  if (error instanceof QueryRejected) return httpError('QUERY_INVALID', [error.message], { ...error.at });
  if (error instanceof UnknownTable) return httpError('QUERY_UNKNOWN_TABLE', [error.message]);
  if (error instanceof UnknownFunction)
    return httpError('QUERY_UNKNOWN_FUNCTION', [error.message], { function: error.fn, nearest: error.nearest });
  if (error instanceof QueryTimeout)
    return error.source === undefined
      ? httpError('QUERY_TIMEOUT', [error.timeoutMs])
      : httpError('QUERY_SOURCE_TIMEOUT', [error.source, error.timeoutMs]);
  if (error instanceof SourceUnavailableError) return httpError('QUERY_SOURCE_UNAVAILABLE', [error.message]);
  return undefined;
}
