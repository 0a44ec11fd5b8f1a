import { describe, expectTypeOf, it } from 'vitest';
import {
  HTTPException,
  Router,
  t,
  type AuthClaims,
  type HandlerContext,
  type PathParams,
  type Static,
} from './index.js';

const router = new Router();

describe('route function types', () => {
  it('types path parameters from the template when there is no schema', () => {
    router.get('/shelves/{shelf}/books/{bookId}', ({ params, query, headers, body }) => {
      expectTypeOf(params).toEqualTypeOf<{ shelf: string; bookId: string }>();
      expectTypeOf(query).toEqualTypeOf<Record<string, string | string[] | undefined>>();
      expectTypeOf(headers).toEqualTypeOf<Record<string, string | string[] | undefined>>();
      expectTypeOf(body).toBeUnknown();
    });
    expectTypeOf<PathParams<'/a/{x}/b/{y}'>>().toEqualTypeOf<{ x: string; y: string }>();
    expectTypeOf<PathParams<'/plain'>>().toEqualTypeOf<Record<never, string>>();
    expectTypeOf<PathParams<string>>().toEqualTypeOf<Record<string, string>>();
  });

  it('infers params, query, headers and body from their schemas', () => {
    router.post(
      '/books/{bookId}',
      {
        params: t.Object({ bookId: t.Integer() }),
        query: t.Object({ available: t.Optional(t.Boolean()), tags: t.Optional(t.Array(t.String())) }),
        headers: t.Object({ 'x-tenant': t.Union([t.Literal('a'), t.Literal('b')]) }),
        body: t.Object({ title: t.String(), year: t.Optional(t.Integer()) }),
      },
      ({ params, query, headers, body, auth, signal }) => {
        expectTypeOf(params).toEqualTypeOf<{ bookId: number }>();
        expectTypeOf(query).toEqualTypeOf<{ available?: boolean; tags?: string[] }>();
        expectTypeOf(headers).toEqualTypeOf<{ 'x-tenant': 'a' | 'b' }>();
        expectTypeOf(body).toEqualTypeOf<{ title: string; year?: number }>();
        expectTypeOf(auth).toEqualTypeOf<AuthClaims | null>();
        expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
      },
    );
  });

  it('checks the returned value against the response schema, sync or async', () => {
    const Book = t.Object({ id: t.Integer(), title: t.String() });
    router.get('/books/{bookId}', { params: t.Object({ bookId: t.Integer() }), response: Book }, ({ params }) => ({
      id: params.bookId,
      title: 'x',
    }));
    router.get('/async', { response: Book }, async () => ({ id: 1, title: 'x' }));
    // @ts-expect-error the response schema says title is a string
    router.get('/wrong', { response: Book }, () => ({ id: 1, title: 2 }));
    // @ts-expect-error a missing required field
    router.get('/missing', { response: Book }, async () => ({ id: 1 }));
    router.get('/anything', () => 42);
    expectTypeOf<Static<typeof Book>>().toEqualTypeOf<{ id: number; title: string }>();
  });

  it('rejects access to parameters that are not declared', () => {
    router.get('/books/{bookId}', { params: t.Object({ bookId: t.Integer() }) }, ({ params }) => {
      // @ts-expect-error not a parameter of this route
      return params.shelf;
    });
    router.get('/q', { query: t.Object({ a: t.String() }) }, ({ query }) => {
      // @ts-expect-error not in the query schema
      return query.b;
    });
  });

  it('has every method, chaining, and the context type for helpers', () => {
    const chained = router
      .put('/p', () => undefined)
      .patch('/p', () => undefined)
      .delete('/p', () => undefined);
    expectTypeOf(chained).toEqualTypeOf<Router>();
    type Ctx = HandlerContext<{ query: ReturnType<typeof t.Object<{ q: ReturnType<typeof t.String> }>> }, '/x/{id}'>;
    expectTypeOf<Ctx['query']>().toEqualTypeOf<{ q: string }>();
    expectTypeOf<Ctx['params']>().toEqualTypeOf<{ id: string }>();
  });

  it('rejects bad schema shapes at compile time', () => {
    // @ts-expect-error status must be a number
    router.get('/s', { status: '201' }, () => undefined);
    // @ts-expect-error the route function comes last
    router.get('/s', () => undefined, {});
  });

  it('HTTPException takes a status and a detail', () => {
    expectTypeOf(HTTPException).constructorParameters.toEqualTypeOf<[status: number, detail: string]>();
    expectTypeOf(new HTTPException(404, 'x')).toHaveProperty('detail').toBeString();
    expectTypeOf(new HTTPException(404, 'x')).toHaveProperty('status').toBeNumber();
  });
});
