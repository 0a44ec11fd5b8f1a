import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';

const item = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
};
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const query = (name: string, schema: unknown) => ({ name, in: 'query', schema });

/** A collection at `path` whose list takes `parameters` and answers `listSchema`. */
function collection(parameters: unknown[], listSchema: unknown) {
  return {
    get: { parameters, responses: { '200': { description: 'list', ...json(listSchema) } } },
    post: {
      requestBody: json({ type: 'object' }),
      responses: { '201': { description: 'created', ...json({ $ref: '#/components/schemas/Item' }) } },
    },
  };
}
const itemPath = {
  get: {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
    responses: { '200': { description: 'one', ...json({ $ref: '#/components/schemas/Item' }) } },
  },
};
const list = { type: 'array', items: { $ref: '#/components/schemas/Item' } };

/** Four collections, one per paging style: limit/offset, page/per_page in an envelope, a cursor, and none declared. */
const spec = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'paged', version: '1' },
  'x-adaptive-state': true,
  paths: {
    '/items': collection([query('limit', { type: 'integer' }), query('offset', { type: 'integer' })], list),
    '/items/{id}': itemPath,
    '/pages': collection(
      [query('page', { type: 'integer' }), query('per_page', { type: 'integer', default: 25, maximum: 50 })],
      { $ref: '#/components/schemas/ItemPage' },
    ),
    '/pages/{id}': itemPath,
    '/feed': collection([query('cursor', { type: 'string' }), query('limit', { type: 'integer' })], list),
    '/feed/{id}': itemPath,
    '/plain': collection([], list),
    '/plain/{id}': itemPath,
  },
  components: {
    schemas: {
      Item: item,
      ItemPage: {
        type: 'object',
        required: ['items', 'total'],
        properties: { items: list, total: { type: 'integer' }, page: { type: 'integer' } },
      },
    },
  },
});

let workspace: string;
let app: FastifyInstance;
let origin: string;
const base = () => `${origin}/api/adaptive/paged`;

beforeAll(async () => {
  workspace = makeWorkspace({ 'specs/paged.json': spec });
  app = await startServer(workspace);
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
  for (const path of ['/items', '/pages', '/feed', '/plain']) {
    for (let batch = 0; batch < 250; batch += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          fetch(base() + path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: `item ${batch + i}` }),
          }).then((r) => expect(r.status).toBe(201)),
        ),
      );
    }
  }
});

afterAll(async () => {
  await app?.close();
  removeWorkspace(workspace);
});

/** The `Link` header's targets by relation. */
function links(response: Response): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of (response.headers.get('link') ?? '').matchAll(/<([^>]*)>;\s*rel="(\w+)"/g))
    found[match[2]] = match[1];
  return found;
}

/** Follows `rel="next"` from `path` to the end; every page's answer and the ids of all items seen. */
async function pageThrough(path: string, itemsOf: (body: never) => { id: number }[] = (body) => body) {
  const pages: { response: Response; body: unknown }[] = [];
  const ids: number[] = [];
  let next: string | undefined = base() + path;
  while (next !== undefined) {
    const response = await fetch(next);
    expect(response.status).toBe(200);
    const body = await response.json();
    pages.push({ response, body });
    ids.push(...itemsOf(body as never).map((i) => i.id));
    const target: string | undefined = links(response).next;
    next = target === undefined ? undefined : origin + target;
    expect(pages.length).toBeLessThan(300);
  }
  return { pages, ids };
}

const allIds = Array.from({ length: 250 }, (_, i) => i + 1);

describe('paging of stateful lists', () => {
  it('pages through 250 items by limit and offset, with X-Total-Count and Link next/prev', async () => {
    const first = await fetch(`${base()}/items?limit=100`);
    expect(first.headers.get('x-total-count')).toBe('250');
    expect(links(first)).toEqual({ next: '/api/adaptive/paged/items?limit=100&offset=100' });
    const { pages, ids } = await pageThrough('/items?limit=100');
    expect(ids).toEqual(allIds);
    expect(pages.map((p) => (p.body as unknown[]).length)).toEqual([100, 100, 50]);
    expect(links(pages[2].response)).toEqual({ prev: '/api/adaptive/paged/items?limit=100&offset=100' });
    // Without a size the spec's paging gives the default page; other query parameters stay in the links.
    const byDefault = await fetch(`${base()}/items?offset=240&q=x`);
    expect(((await byDefault.json()) as unknown[]).length).toBe(10);
    expect(links(byDefault)).toEqual({ prev: '/api/adaptive/paged/items?offset=220&q=x&limit=20' });
  });

  it("fills a list envelope and uses the spec's page/per_page names, default and maximum", async () => {
    const first = await fetch(`${base()}/pages`);
    const body = (await first.json()) as { items: { id: number }[]; total: number; page: number };
    expect(body.total).toBe(250);
    expect(body.page).toBe(1);
    expect(body.items.map((i) => i.id)).toEqual(allIds.slice(0, 25));
    expect(first.headers.get('x-adaptive-violations')).toBeNull();
    const { ids } = await pageThrough('/pages?per_page=50', (page: { items: { id: number }[] }) => page.items);
    expect(ids).toEqual(allIds);
    const last = await fetch(`${base()}/pages?page=5&per_page=50`);
    expect(links(last)).toEqual({ prev: '/api/adaptive/paged/pages?page=4&per_page=50' });
    const beyond = await fetch(`${base()}/pages?page=11`);
    expect(((await beyond.json()) as { items: unknown[] }).items).toEqual([]);
  });

  it('pages by an opaque cursor, and answers the whole list when the spec declares no paging', async () => {
    const { ids, pages } = await pageThrough('/feed?limit=60');
    expect(ids).toEqual(allIds);
    expect(pages).toHaveLength(5);
    expect(links(pages[0].response).next).toMatch(/^\/api\/adaptive\/paged\/feed\?limit=60&cursor=[\w-]+$/);
    const plain = await fetch(`${base()}/plain`);
    expect(((await plain.json()) as unknown[]).length).toBe(250);
    expect(plain.headers.get('x-total-count')).toBe('250');
    expect(plain.headers.get('link')).toBeNull();
    // limit and offset are understood all the same.
    const { ids: plainIds } = await pageThrough('/plain?limit=100');
    expect(plainIds).toEqual(allIds);
  });

  it.each([
    ['/items?limit=-1', 'limit must be a whole number from 1 to 100, not "-1"'],
    ['/items?limit=0', 'limit must be a whole number from 1 to 100, not "0"'],
    ['/items?limit=101', 'limit must be a whole number from 1 to 100, not "101"'],
    ['/items?offset=-5', 'offset must be a whole number 0 or more, not "-5"'],
    ['/plain?limit=abc', 'limit must be a whole number from 1 to 100, not "abc"'],
    ['/plain?offset=1.5', 'offset must be a whole number 0 or more, not "1.5"'],
    ['/plain?limit=1&limit=2', 'limit is given more than once'],
    ['/pages?page=0', 'page must be a whole number 1 or more, not "0"'],
    ['/feed?cursor=bogus', 'cursor "bogus" is not a cursor this mock gave out'],
  ])('GET %s is 400 {detail, code}: %s', async (path, detail) => {
    const response = await fetch(base() + path);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: `The paging parameter ${detail}`, code: 'PAGE_PARAMETER_INVALID' });
  });

  it.each(['/items?limit=abc', '/pages?per_page=51'])(
    'GET %s breaks the parameter schema: request validation answers 400 first',
    async (path) => {
      const response = await fetch(base() + path);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
    },
  );

  it('sees every item once while POSTs go on during paging, by offset and by cursor', async () => {
    const posts: Promise<Response>[] = [];
    const post = (path: string) =>
      posts.push(
        fetch(base() + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'late' }),
        }),
      );
    for (const path of ['/items', '/feed']) {
      const before = Number((await fetch(`${base()}${path}?limit=1`)).headers.get('x-total-count'));
      const seen: number[] = [];
      let next: string | undefined = `${base()}${path}?limit=30`;
      while (next !== undefined) {
        for (let i = 0; i < 5; i++) post(path);
        const response: Response = await fetch(next);
        seen.push(...((await response.json()) as { id: number }[]).map((i) => i.id));
        const target: string | undefined = links(response).next;
        next = target === undefined ? undefined : origin + target;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.slice(0, before)).toEqual(Array.from({ length: before }, (_, i) => i + 1));
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    }
    expect((await Promise.all(posts)).every((r) => r.status === 201)).toBe(true);
  });
});
