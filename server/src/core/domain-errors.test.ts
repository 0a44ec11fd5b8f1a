import { describe, expect, it } from 'vitest';
import { NotUnderstood, QueryRejected, toHttpError, UnknownTable } from './domain-errors.js';
import { httpError } from './errors.js';

describe('toHttpError', () => {
  it('answers each domain error with its catalogue code', () => {
    expect(toHttpError(new NotUnderstood('Could not tell which number. Known tables: a.b'))?.body()).toEqual({
      detail: 'Could not tell which number. Known tables: a.b',
      code: 'NL_NOT_UNDERSTOOD',
    });
    const rejected = toHttpError(new QueryRejected('Syntax error', { position: 7, line: 1, column: 8 }));
    expect([rejected?.status, rejected?.body()]).toEqual([
      400,
      { detail: 'Syntax error', code: 'QUERY_INVALID', position: 7, line: 1, column: 8 },
    ]);
    expect(toHttpError(new QueryRejected('The query is empty'))?.body()).toEqual({
      detail: 'The query is empty',
      code: 'QUERY_INVALID',
    });
    expect(toHttpError(new UnknownTable('Source "shop" has no table "x"'))?.status).toBe(404);
  });

  it('passes an HttpError through and leaves any other error to the caller', () => {
    const error = httpError('NOT_READY');
    expect(toHttpError(error)).toBe(error);
    expect(toHttpError(new TypeError('x is undefined'))).toBeUndefined();
    expect(toHttpError('a string')).toBeUndefined();
  });
});
