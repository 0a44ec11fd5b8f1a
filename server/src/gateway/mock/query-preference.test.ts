import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';
import { controlPreference, withoutControlParams } from './query-preference.js';

const item = {
  type: 'object',
  required: ['id', 'sku'],
  properties: { id: { type: 'integer', minimum: 1 }, sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' } },
};
const json = (media: Record<string, unknown>) => ({ description: 'ok', content: { 'application/json': media } });
const operations = {
  '/items': {
    get: {
      parameters: [{ name: 'status', in: 'query', required: true, schema: { type: 'string', enum: ['open', 'shut'] } }],
      responses: {
        '200': json({
          schema: { type: 'array', items: item },
          examples: { all: { value: [{ id: 1, sku: 'ABC-0001' }] }, none: { value: [] } },
        }),
        '404': json({ example: { detail: 'no items' } }),
      },
    },
    post: {
      requestBody: { content: { 'application/json': { schema: item } } },
      responses: { '201': json({ schema: item }) },
    },
  },
  '/items/{id}': {
    get: {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      responses: { '200': json({ schema: item }) },
    },
  },
};
const spec = (extension: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: '3.0.3', info: { title: 'shop', version: '1' }, ...extension, paths: operations });

let upstreamUrls: string[] = [];
const upstream = http.createServer((request, response) => {
  upstreamUrls.push(request.url ?? '');
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify([{ id: 2, sku: 'XYZ-0002' }]));
});

let app: FastifyInstance;
let workspace: string;
let base: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  workspace = makeWorkspace({
    'specs/shop.json': spec(),
    'specs/proxied.json': spec({ 'x-adaptive-proxy': `http://127.0.0.1:${port}/v1` }),
    'specs/kept.json': spec({ 'x-adaptive-state': true }),
  });
  app = await startServer(workspace);
  base = (await app.listen({ host: '127.0.0.1', port: 0 })) + '/api/adaptive';
});
afterAll(async () => {
  await app.close();
  await new Promise((resolve) => upstream.close(resolve));
  removeWorkspace(workspace);
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(base + path, { headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
};

describe('?__code, ?__example, ?__dynamic and ?__seed choose the answer as Prefer does', () => {
  it('answers the named status and example', async () => {
    expect(await get('/shop/items?status=open&__code=404')).toMatchObject({
      status: 404,
      body: { detail: 'no items' },
    });
    expect(await get('/shop/items?status=open&__example=none')).toMatchObject({ status: 200, body: [] });
  });

  it('lets the query win over the Prefer header, and keeps the header choices it does not name', async () => {
    const both = await get('/shop/items?status=open&__code=404', { prefer: 'code=200, example=none' });
    expect(both.status).toBe(404);
    const mixed = await get('/shop/items?status=open&__example=all', { prefer: 'code=200' });
    expect(mixed).toMatchObject({ status: 200, body: [{ id: 1, sku: 'ABC-0001' }] });
  });

  it('are not the operation parameters: validation still checks the real ones', async () => {
    expect((await get('/shop/items?__code=404')).status).toBe(400);
    expect((await get('/shop/items?status=open&__code=404')).status).toBe(404);
  });

  it('answers an undeclared status as Prefer: code= does (404 naming the declared ones)', async () => {
    const undeclared = await get('/shop/items?status=open&__code=503');
    expect(undeclared.status).toBe(404);
    expect(undeclared.body).toMatchObject({ code: 'PREFER_NOT_DECLARED' });
    expect((undeclared.body as { detail: string }).detail).toContain('declared: 200, 404');
  });

  it.each([
    ['__code=abc', '__code=abc is not valid'],
    ['__code=999', 'a status code from 100 to 599'],
    ['__code=404&__code=200', 'given once'],
    ['__seed=abc', 'an integer from 0 to 4294967295'],
    ['__seed=99999999999', 'an integer from 0 to 4294967295'],
    ['__dynamic=yes', 'true or false'],
    ['__example=', 'an example name'],
  ])('refuses %s with a 400 saying what it expects', async (query, expected) => {
    const answer = await get(`/shop/items?status=open&${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'MOCK_QUERY_INVALID' });
    expect((answer.body as { detail: string }).detail).toContain(expected);
  });

  it('generates valid values, the same for the same seed and fresh without one', async () => {
    const validate = new Ajv().compile({ type: 'array', items: item });
    const seeded = await get('/shop/items?status=open&__dynamic=true&__seed=7');
    expect(seeded.headers.get('x-adaptive-mode')).toBe('dynamic');
    expect(validate(seeded.body)).toBe(true);
    expect((await get('/shop/items?status=open&__seed=7')).body).toEqual(seeded.body);
    const bodies = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const fresh = await get('/shop/items?status=open&__dynamic=true');
      expect(validate(fresh.body)).toBe(true);
      bodies.add(JSON.stringify(fresh.body));
    }
    expect(bodies.size).toBeGreaterThan(1);
  });

  it('turns a stateful route to the spec examples, as Prefer does', async () => {
    expect((await get('/kept/items?status=open')).headers.get('x-adaptive-mode')).toBe('stateful');
    expect(await get('/kept/items?status=open&__code=404')).toMatchObject({
      status: 404,
      body: { detail: 'no items' },
    });
  });

  it('are not forwarded upstream by the proxy', async () => {
    upstreamUrls = [];
    const proxied = await get('/proxied/items?status=open&__code=404&x=%26&__seed=3');
    expect(proxied.status).toBe(200);
    expect(upstreamUrls).toEqual(['/v1/items?status=open&x=%26']);
  });
});

describe('withoutControlParams', () => {
  it('keeps the other parameters byte for byte and drops encoded control names', () => {
    expect(withoutControlParams('/a?x=1+2&__code=404&y=%20')).toBe('/a?x=1+2&y=%20');
    expect(withoutControlParams('/a?__co%64e=404')).toBe('/a');
    // As the route reads them: a name whose underscores are encoded is not a control parameter.
    expect(withoutControlParams('/a?%5F%5Fcode=404')).toBe('/a?%5F%5Fcode=404');
    expect(withoutControlParams('/a?__codex=1')).toBe('/a?__codex=1');
    expect(withoutControlParams('/a__b')).toBe('/a__b');
  });
});

describe('controlPreference', () => {
  it('reads a query string of control parameters alone, as the route reads them', () => {
    expect(controlPreference('__dynamic=true')).toEqual({ dynamic: true });
    expect(controlPreference('__code=404&__example=none&__seed=0&__dynamic=false')).toEqual({
      code: 404,
      example: 'none',
      seed: 0,
      dynamic: false,
    });
  });

  it('reads nothing from any other query string, so that the route parses, checks and refuses it', () => {
    for (const query of [
      '',
      '__dynamic',
      '__dynamic=',
      '__dynamic=yes',
      '__code=99',
      '__seed=abc',
      '__seed=4294967296',
      '__example=',
      '__dynamic=true&__dynamic=true',
      '__dynamic=true&',
      'status=open&__dynamic=true',
      '__delay=10',
      '__codex=1',
      '__example=a+b',
      '__example=a%20b',
      '%5F%5Fcode=404',
      '__proto__=1',
    ])
      expect([query, controlPreference(query)]).toEqual([query, undefined]);
  });
});
