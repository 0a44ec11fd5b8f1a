import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';
import { packageRoot } from '../../core/version.js';

// The example workspace's own files (at the repository root, above the server package): the spec (phase 1) and the
// handler that overrides it (phase 2).
const read = (name: string) => fs.readFileSync(path.join(packageRoot, '..', name), 'utf8');

let workspace: string;
let app: FastifyInstance;

beforeAll(async () => {
  workspace = makeWorkspace({
    'specs/library-api.openapi.yaml': read('specs/library-api.openapi.yaml'),
    'handlers/library_api_handler.ts': read('handlers/library_api_handler.ts'),
  });
  app = await startServer(workspace);
});
afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
});

const base = '/api/adaptive/library-api';
const get = (p: string) => app.inject({ method: 'GET', url: base + p });
const post = (payload: unknown) => app.inject({ method: 'POST', url: `${base}/books`, payload: payload as object });
const thisYear = new Date().getUTCFullYear();

describe('library API handler (service document parts 2, 4 and 7)', () => {
  it('loads over the spec without errors', () => {
    expect(app.gateway.files('handler')).toEqual(['library_api_handler.ts']);
    expect(app.gateway.files('spec')).toEqual(['library-api.openapi.yaml']);
    expect(app.gateway.loadProblems).toEqual([]);
  });

  it(
    'GET /books lists the seeded catalogue as {books, count}, served by the handler, not the spec ' + 'example',
    async () => {
      const response = await get('/books');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(['books', 'count']);
      expect(body.count).toBe(body.books.length);
      expect(body.count).toBeGreaterThanOrEqual(2);
      expect(body.books.map((b: { id: number }) => b.id)).toEqual(body.books.map((_: unknown, i: number) => i + 1));
      for (const book of body.books) {
        expect(Object.keys(book).sort()).toEqual(['author', 'available', 'id', 'isbn', 'publishedYear', 'title']);
      }
      expect(body.books.some((b: { available: boolean }) => !b.available)).toBe(true);
    },
  );

  it('GET /books?available= returns only the books whose available equals it', async () => {
    const all = (await get('/books')).json().books as Array<{ available: boolean }>;
    for (const flag of [true, false]) {
      const body = (await get(`/books?available=${flag}`)).json();
      expect(body.books).toEqual(all.filter((b) => b.available === flag));
      expect(body.count).toBe(body.books.length);
    }
    const bad = await get('/books?available=perhaps');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/available must be boolean/);
  });

  it(
    'POST /books adds a book with the next sequential id, AUTO-<id> isbn, available true and the current UTC ' + 'year',
    async () => {
      const before = (await get('/books')).json().count as number;
      const response = await post({ title: 'Dune', author: 'Frank Herbert' });
      expect(response.statusCode).toBe(201);
      const book = response.json();
      expect(book).toEqual({
        id: before + 1,
        title: 'Dune',
        author: 'Frank Herbert',
        isbn: `AUTO-${before + 1}`,
        available: true,
        publishedYear: thisYear,
      });
      expect((await get(`/books/${book.id}`)).json()).toEqual(book);
      expect((await get('/books')).json().books.at(-1)).toEqual(book);
    },
  );

  it('POST /books keeps a given isbn and publishedYear, and ignores a client-sent id or available', async () => {
    const before = (await get('/books')).json().count as number;
    const book = (
      await post({
        title: 'Emma',
        author: 'Jane Austen',
        isbn: '978-0141439587',
        publishedYear: 1815,
        id: 99,
        available: false,
      })
    ).json();
    expect(book).toEqual({
      id: before + 1,
      title: 'Emma',
      author: 'Jane Austen',
      isbn: '978-0141439587',
      available: true,
      publishedYear: 1815,
    });
  });

  it.each([
    ['no title', { author: 'A' }],
    ['no author', { title: 'T' }],
    ['neither', {}],
    ['an empty title', { title: '', author: 'A' }],
    ['a blank author', { title: 'T', author: '   ' }],
  ])('POST /books with %s answers 400 saying title and author are required, and uses no id', async (_, payload) => {
    const before = (await get('/books')).json().count as number;
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'Title and author are required', code: 'HANDLER_HTTP_EXCEPTION' });
    expect((await get('/books')).json().count).toBe(before);
    expect((await post({ title: 'Next', author: 'In line' })).json().id).toBe(before + 1);
  });

  it('POST /books rejects fields of the wrong type with 400 {detail} naming the field', async () => {
    const response = await post({ title: 'T', author: 'A', publishedYear: 'last year' });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/publishedYear must be integer/);
  });

  it('GET /books/{bookId} answers the book, 404 naming a missing id, 400 for a non-integer id', async () => {
    expect((await get('/books/1')).json()).toMatchObject({ id: 1 });
    const missing = await get('/books/4242');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Book 4242 not found', code: 'HANDLER_HTTP_EXCEPTION' });
    expect((await get('/books/abc')).statusCode).toBe(400);
  });

  it('GET /stats answers {total_books} with the size of the catalogue', async () => {
    const count = (await get('/books')).json().count;
    expect((await get('/stats')).json()).toEqual({ total_books: count });
    await post({ title: 'One more', author: 'Someone' });
    expect((await get('/stats')).json()).toEqual({ total_books: count + 1 });
  });

  it('lists its routes as handler routes, /stats among them, in the listing and in openapi.json', async () => {
    const endpoints = (await app.inject({ method: 'GET', url: '/api/adaptive/' })).json().endpoints as Array<{
      method: string;
      path: string;
      source: string;
    }>;
    const mine = endpoints
      .filter((e) => e.path.startsWith(base))
      .map((e) => `${e.source} ${e.method} ${e.path.slice(base.length)}`)
      .sort();
    expect(mine).toEqual([
      'handler GET /books',
      'handler GET /books/{bookId}',
      'handler GET /stats',
      'handler POST /books',
    ]);
    const doc = (await app.inject({ method: 'GET', url: '/api/adaptive/openapi.json' })).json();
    expect(doc.paths['/library-api/stats'].get.responses['200'].content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['total_books'],
      properties: { total_books: { type: 'integer' } },
    });
    expect(doc.paths['/library-api/books'].post.responses).toHaveProperty('201');
    expect(doc.paths['/library-api/books/{bookId}'].get.responses['404']).toMatchObject({
      description: 'Book not found',
    });
  });
});
