import { describe, expect, it } from 'vitest';
import { HttpError } from '../core/errors.js';
import { HTTPException, Router, t } from './index.js';

const noop = () => undefined;

describe('Router', () => {
  it('registers every method with and without a schema, in order, and chains', () => {
    const schema = { query: t.Object({ q: t.String() }), status: 201 };
    const router = new Router()
      .get('/a', noop)
      .post('/a', schema, noop)
      .put('/a/{id}', noop)
      .delete('/a/{id}', noop)
      .patch('/a/{id}', noop);
    expect(router.routes.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /a',
      'POST /a',
      'PUT /a/{id}',
      'DELETE /a/{id}',
      'PATCH /a/{id}',
    ]);
    expect(router.routes[1].schema).toEqual(schema);
    expect(router.routes[2].paramNames).toEqual(['id']);
    expect(router.routes[0].schema).toEqual({});
  });

  it('keeps its own copy of the schema', () => {
    const schema: { status?: number } = { status: 201 };
    const router = new Router().post('/a', schema, noop);
    schema.status = 500;
    expect(router.routes[0].schema.status).toBe(201);
  });

  it.each([
    ['books', /must be a string starting with "\/"/],
    ['', /must be a string starting with "\/"/],
    ['/books?x=1', /cannot contain spaces, "\?" or "#"/],
    ['/bo oks', /cannot contain/],
    ['/books/{}', /\{\} is not a valid parameter name/],
    ['/books/{1d}', /not a valid parameter name/],
    ['/books/{id', /unbalanced/],
    ['/books/id}', /unbalanced/],
    ['/a/{id}/b/{id}', /appears twice/],
  ])('rejects the path %j', (path, message) => {
    expect(() => new Router().get(path, noop)).toThrow(message);
  });

  it('rejects a non-string path and a missing route function', () => {
    expect(() => new Router().get(42 as unknown as string, noop)).toThrow(/must be a string/);
    expect(() => new Router().get('/a', {} as never)).toThrow(/last argument must be the route function/);
    expect(() => new Router().get('/a', { status: 200 }, 'nope' as never)).toThrow(/route function/);
  });

  it('rejects a route registered twice, also under another parameter name', () => {
    const router = new Router().get('/books/{id}', noop);
    expect(() => router.get('/books/{bookId}', noop)).toThrow('GET /books/{bookId} is registered twice');
    expect(() => router.post('/books/{bookId}', noop)).not.toThrow();
  });

  it('requires the params schema to declare exactly the path parameters', () => {
    expect(() => new Router().get('/b/{id}', { params: t.Object({ bookId: t.Integer() }) }, noop)).toThrow(
      /declares "bookId", which is not a \{parameter\}/,
    );
    expect(() => new Router().get('/b/{id}/{x}', { params: t.Object({ id: t.Integer() }) }, noop)).toThrow(
      /path parameter \{x\} is missing from schema.params/,
    );
    expect(() => new Router().get('/b/{id}', { params: t.String() as never }, noop)).toThrow(/must be t.Object/);
  });

  it('rejects schemas that are not schemas, a bad status and mixed-case header names', () => {
    expect(() => new Router().get('/a', { query: 'x' as never }, noop)).toThrow(
      /schema.query must be a schema built with t/,
    );
    expect(() => new Router().get('/a', { status: 99 }, noop)).toThrow(/schema.status must be an HTTP status/);
    expect(() => new Router().get('/a', { status: 200.5 }, noop)).toThrow(/schema.status/);
    expect(() => new Router().get('/a', { headers: t.Object({ 'X-Tenant': t.String() }) }, noop)).toThrow(
      /use "x-tenant"/,
    );
  });
});

describe('HTTPException', () => {
  it('is an HttpError with status and {detail, code} body', () => {
    const error = new HTTPException(404, 'Book 9 not found');
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(404);
    expect(error.body()).toEqual({ detail: 'Book 9 not found', code: 'HANDLER_HTTP_EXCEPTION' });
    expect(error.name).toBe('HTTPException');
  });

  it('accepts only error statuses', () => {
    for (const status of [200, 302, 399, 600, 404.5, Number.NaN])
      expect(() => new HTTPException(status, 'x')).toThrow(RangeError);
    expect(new HTTPException(599, 'x').status).toBe(599);
  });
});

describe('t', () => {
  it('is the TypeBox builder', () => {
    expect(t.Object({ a: t.Integer() })).toMatchObject({
      type: 'object',
      properties: { a: { type: 'integer' } },
      required: ['a'],
    });
  });
});
