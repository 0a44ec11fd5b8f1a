import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../main/app.js';
import { loadConfig } from '../../core/config.js';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';
import pino from 'pino';

const sdk =
  `import { Router, HTTPException, t } from 'adaptive-workbench/handler';\nexport const router = new ` + `Router();\n`;

const features =
  `${sdk}
let aborted = false;
router.get('/', () => ({ root: true }));
router.get('/raw/{shelf}/{id}', ({ params, query }) => ({ params, query }));
router.get('/typed/{id}', { params: t.Object({ id: t.Integer({ minimum: 1 }) }) }, ({ params }) => ({ id: ` +
  `params.id, type: typeof params.id }));
router.get('/search', {
  query: t.Object({ available: t.Optional(t.Boolean()), limit: t.Optional(t.Integer({ maximum: 50 })), tag: ` +
  `t.Optional(t.Array(t.String())), sort: t.Optional(t.Union([t.Literal('asc'), t.Literal('desc')])) }),
}, ({ query }) => ({ query }));
router.get('/tenant', { headers: t.Object({ 'x-tenant': t.String({ minLength: 2 }), 'x-count': ` +
  `t.Optional(t.Integer()) }) }, ({ headers }) => ({ tenant: headers['x-tenant'], count: headers['x-count'] ?? null }));
router.post('/items', { body: t.Object({ title: t.String(), tags: t.Optional(t.Array(t.String())) }), status: ` +
  `201 }, ({ body }) => ({ created: body }));
router.put('/items/{id}', { params: t.Object({ id: t.Integer() }), body: t.Object({ title: t.String() }) }, ({ ` +
  `params, body }) => ({ id: params.id, ...body }));
router.patch('/items/{id}', ({ params, body }) => ({ id: params.id, body: Buffer.isBuffer(body) ? 'buffer:' + ` +
  `body.toString() : body }));
router.delete('/items/{id}', { status: 204 }, () => undefined);
router.get('/nothing', () => undefined);
router.get('/missing/{id}', { params: t.Object({ id: t.Integer() }) }, async ({ params }) => { throw new ` +
  `HTTPException(404, 'Item ' + params.id + ' not found'); });
router.get('/teapot', () => { throw new HTTPException(418, "I'm a teapot"); });
router.get('/crash', () => { const e = new Error('secret database password in message'); throw e; });
router.get('/crash-with-status', () => { const e = Object.assign(new Error('upstream said 404: secret'), { ` +
  `statusCode: 404 }); throw e; });
router.get('/throw-string', () => { throw 'not an error'; });
router.get('/bigint', () => ({ n: 1n }));
router.get('/bigint-later', async () => ({ n: 1n }));
router.get('/later', () => new Promise((resolve) => setTimeout(() => resolve({ later: true }), 20)));
router.get('/later-nothing', async () => undefined);
router.get('/crash-later', async () => { await new Promise((resolve) => setTimeout(resolve, 5)); throw new ` +
  `Error('secret later'); });
router.get('/context', (ctx) => { const { signal, ...rest } = ctx; return { keys: Object.keys(rest).sort(), ` +
  `aborted: signal.aborted, same: ctx.signal === signal }; });
router.get('/hang', ({ signal }) => new Promise((resolve) => signal.addEventListener('abort', () => { aborted = ` +
  `true; resolve('late'); })));
router.get('/aborted', () => ({ aborted }));
router.get('/auth', ({ auth }) => ({ auth }));
`;

let workspace: string;
let app: FastifyInstance;

const refresh = async (server: FastifyInstance) =>
  (await server.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json();

beforeAll(async () => {
  workspace = makeWorkspace({ 'handlers/features_handler.ts': features });
  const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent', HANDLER_TIMEOUT_MS: '2000' }, { workspace });
  app = await buildServer(config, { logger: pino({ level: 'silent' }) });
  // Stands in for the authentication layer, which attaches verified claims as request.auth.
  app.addHook('onRequest', async (request) => {
    const user = request.headers['x-test-user'];
    if (typeof user === 'string')
      (request as typeof request & { auth: unknown }).auth = { sub: user, scope: 'books:read' };
  });
  await app.ready();
  await app.gateway.start();
});
afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
});

const url = (p: string) => `/api/adaptive/features${p}`;
const get = (p: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: url(p), headers });

describe('handler routes', () => {
  it('loads the handler and serves its routes, the root route at the mount itself', async () => {
    expect(app.gateway.files('handler')).toEqual(['features_handler.ts']);
    expect(app.gateway.loadProblems).toEqual([]);
    const root = await app.inject({ method: 'GET', url: '/api/adaptive/features' });
    expect(root.statusCode).toBe(200);
    expect(root.json()).toEqual({ root: true });
    expect(root.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('passes path parameters as strings and the query as parsed without a schema', async () => {
    const response = await get('/raw/a%20b/7?x=1&x=2&y=z');
    expect(response.json()).toEqual({ params: { shelf: 'a b', id: '7' }, query: { x: ['1', '2'], y: 'z' } });
  });

  it('coerces and validates path parameters', async () => {
    expect((await get('/typed/42')).json()).toEqual({ id: 42, type: 'number' });
    const bad = await get('/typed/abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      detail: 'Request validation failed: path id must be integer',
      code: 'VALIDATION_FAILED',
      errors: [{ in: 'path', name: 'id', message: 'must be integer' }],
    });
    expect((await get('/typed/0')).json().detail).toBe('Request validation failed: path id must be >= 1');
  });

  it('coerces and validates query parameters, naming each bad field', async () => {
    const ok = await get('/search?available=true&limit=5&tag=a&sort=asc');
    expect(ok.json()).toEqual({ query: { available: true, limit: 5, tag: ['a'], sort: 'asc' } });
    expect((await get('/search?tag=a&tag=b&available=false')).json()).toEqual({
      query: { tag: ['a', 'b'], available: false },
    });
    expect((await get('/search')).json()).toEqual({ query: {} });
    const bad = await get('/search?available=maybe&limit=500&sort=up');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(
      /^Request validation failed: query available must be boolean; query limit must be <= 50; query sort/,
    );
    expect(new Set(bad.json().errors.map((e: { name: string }) => e.name))).toEqual(
      new Set(['available', 'limit', 'sort']),
    );
  });

  it('coerces and validates headers', async () => {
    expect((await get('/tenant', { 'x-tenant': 'acme', 'x-count': '3' })).json()).toEqual({ tenant: 'acme', count: 3 });
    const missing = await get('/tenant');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ in: 'header', name: 'x-tenant', message: 'is required' }]);
    expect((await get('/tenant', { 'x-tenant': 'a' })).json().errors[0]).toMatchObject({
      in: 'header',
      name: 'x-tenant',
    });
  });

  it('validates JSON bodies and answers with the schema status', async () => {
    const created = await app.inject({ method: 'POST', url: url('/items'), payload: { title: 'Dune', tags: ['sf'] } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ created: { title: 'Dune', tags: ['sf'] } });

    const wrongType = await app.inject({ method: 'POST', url: url('/items'), payload: { title: 5 } });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().detail).toBe('Request validation failed: body title must be string');
    const missingField = await app.inject({ method: 'POST', url: url('/items'), payload: { tags: [1] } });
    expect(missingField.json().errors).toEqual([
      { in: 'body', name: 'title', message: 'is required' },
      { in: 'body', name: 'tags.0', message: 'must be string' },
    ]);
    const notObject = await app.inject({
      method: 'POST',
      url: url('/items'),
      payload: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expect(notObject.json().detail).toBe('Request validation failed: body must be object');
  });

  it('rejects a missing body, a body that is not JSON, and malformed JSON', async () => {
    const none = await app.inject({ method: 'POST', url: url('/items') });
    expect(none.statusCode).toBe(400);
    expect(none.json().detail).toBe('Request validation failed: body a request body is required');
    const text = await app.inject({
      method: 'POST',
      url: url('/items'),
      payload: 'title=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().detail).toMatch(/text\/plain.*application\/json/);
    const form = await app.inject({
      method: 'POST',
      url: url('/items'),
      payload: 'title=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
    const malformed = await app.inject({
      method: 'POST',
      url: url('/items'),
      payload: '{"title":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(Object.keys(malformed.json())).toEqual(['detail', 'code', 'errors']);
  });

  it('serves PUT, PATCH and DELETE; a route without a body schema gets the body as parsed', async () => {
    expect((await app.inject({ method: 'PUT', url: url('/items/3'), payload: { title: 'x' } })).json()).toEqual({
      id: 3,
      title: 'x',
    });
    expect((await app.inject({ method: 'PATCH', url: url('/items/3'), payload: { a: 1 } })).json()).toEqual({
      id: '3',
      body: { a: 1 },
    });
    const octets = await app.inject({
      method: 'PATCH',
      url: url('/items/3'),
      payload: 'raw',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(octets.json()).toEqual({ id: '3', body: 'buffer:raw' });
    const deleted = await app.inject({ method: 'DELETE', url: url('/items/3') });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
  });

  it('sends no body when the route returns undefined, and none for HEAD', async () => {
    const nothing = await get('/nothing');
    expect(nothing.statusCode).toBe(200);
    expect(nothing.body).toBe('');
    const head = await app.inject({ method: 'HEAD', url: url('/typed/5') });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('answers 405 for a method the mount does not serve on that path', async () => {
    const response = await app.inject({ method: 'POST', url: url('/typed/5') });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET');
  });

  it('turns HTTPException into its status and {detail, code}', async () => {
    const missing = await get('/missing/9');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Item 9 not found', code: 'HANDLER_HTTP_EXCEPTION' });
    expect((await get('/teapot')).statusCode).toBe(418);
  });

  it('answers any other throw with 500 {detail: "Internal error"} and never leaks the message or stack', async () => {
    for (const route of ['/crash', '/crash-with-status', '/throw-string', '/bigint', '/bigint-later', '/crash-later']) {
      const response = await get(route);
      expect(response.statusCode, route).toBe(500);
      expect(response.json(), route).toEqual({ detail: 'Internal error', code: 'INTERNAL' });
      expect(response.body).not.toMatch(/secret|features_handler|at /);
    }
  });

  it('sends what a returned promise resolves to, synchronous or not', async () => {
    const later = await get('/later');
    expect(later.statusCode).toBe(200);
    expect(later.json()).toEqual({ later: true });
    const nothing = await get('/later-nothing');
    expect(nothing.statusCode).toBe(200);
    expect(nothing.body).toBe('');
  });

  it('hands the route a context that destructures into its fields and one signal', async () => {
    expect((await get('/context')).json()).toEqual({
      keys: ['auth', 'body', 'headers', 'params', 'query', 'trace'],
      aborted: false,
      same: true,
    });
  });

  it('cuts off a route that does not answer in time with 504 and aborts its signal', async () => {
    const response = await get('/hang');
    expect(response.statusCode).toBe(504);
    expect(response.json()).toEqual({ detail: 'Handler did not answer within 2000 ms', code: 'HANDLER_TIMEOUT' });
    expect((await get('/aborted')).json()).toEqual({ aborted: true });
  });

  it('gives the route the verified claims of the caller, or null', async () => {
    expect((await get('/auth')).json()).toEqual({ auth: null });
    expect((await get('/auth', { 'x-test-user': 'alice' })).json()).toEqual({
      auth: { sub: 'alice', scope: 'books:read' },
    });
  });
});

describe('logging', () => {
  it('logs the stack of a failing route at the line of the handler that threw', async () => {
    const dir = makeWorkspace({
      'handlers/crash_handler.ts': `${sdk}\nrouter.get('/', () => {\n  throw new Error('disk full');\n});\n`,
    });
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const server = await buildServer(loadConfig({ HOT_RELOAD: 'false' }, { workspace: dir }), { logger });
    try {
      await server.ready();
      await server.gateway.start();
      const response = await server.inject({ method: 'GET', url: '/api/adaptive/crash' });
      expect(response.json()).toEqual({ detail: 'Internal error', code: 'INTERNAL' });
      const entry = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'handler failed');
      expect(entry).toMatchObject({
        level: 50,
        handler: 'crash_handler.ts',
        method: 'GET',
        path: '/crash',
        err: { message: 'disk full' },
      });
      expect(entry.err.stack).toContain(`${fs.realpathSync(path.join(dir, 'handlers/crash_handler.ts'))}:5:9`);
    } finally {
      await server.close();
      removeWorkspace(dir);
    }
  });
});

describe('documentation', () => {
  it('lists handler routes in the gateway listing', async () => {
    const info = (await app.inject({ method: 'GET', url: '/api/adaptive/' })).json();
    expect(info.handlers).toEqual(['features_handler.ts']);
    expect(info.endpoints).toContainEqual({
      method: 'GET',
      path: '/api/adaptive/features/typed/{id}',
      source: 'handler',
      file: 'features_handler.ts',
    });
    expect(info.endpoints).toContainEqual({
      method: 'GET',
      path: '/api/adaptive/features',
      source: 'handler',
      file: 'features_handler.ts',
    });
  });

  it('documents parameters, bodies and responses from the schemas in openapi.json', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/adaptive/openapi.json' })).json();
    expect(doc.paths['/features/typed/{id}'].get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
    ]);
    expect(doc.paths['/features/raw/{shelf}/{id}'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'shelf',
      'id',
    ]);
    const search = doc.paths['/features/search'].get;
    expect(search.parameters).toContainEqual({
      name: 'sort',
      in: 'query',
      required: false,
      schema: {
        anyOf: [
          { enum: ['asc'], type: 'string' },
          { enum: ['desc'], type: 'string' },
        ],
      },
    });
    expect(search.responses['400']).toMatchObject({ description: 'Invalid request' });
    expect(doc.paths['/features/tenant'].get.parameters).toContainEqual({
      name: 'x-tenant',
      in: 'header',
      required: true,
      schema: { type: 'string', minLength: 2 },
    });
    const post = doc.paths['/features/items'].post;
    expect(post.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['title'],
            properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
    });
    expect(Object.keys(post.responses).sort()).toEqual(['201', '400']);
    expect(doc.paths['/features/items/{id}'].delete.responses['204']).toEqual({ description: 'No Content' });
    expect(doc.paths['/features/typed/{id}'].get.tags).toEqual(['features']);
  });
});

describe('mounts and precedence', () => {
  const spec = `openapi: 3.0.3
info: {title: Cool, version: 1.0.0}
servers: [{url: /api/adaptive/my-cool-api}]
paths:
  /items:
    get:
      description: Items of the spec
      parameters: [{name: limit, in: query, schema: {type: integer}}]
      responses:
        '200': {description: ok, content: {application/json: {example: {from: spec}}}}
        '404': {description: none, content: {application/json: {schema: {type: object}}}}
  /items/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {'200': {description: ok, content: {application/json: {example: {from: spec-item}}}}}
`;
  const handler =
    `${sdk}
router.get('/items', { summary: 'From the handler', response: t.Object({ from: t.String() }) }, () => ({ from: ` +
    `'handler' }));
router.get('/extra', { summary: 'Only in the handler', response: t.Object({ n: t.Integer() }) }, () => ({ n: 1 }));
`;
  let dir: string;
  let server: FastifyInstance;
  beforeAll(async () => {
    dir = makeWorkspace({
      'specs/cool.openapi.yaml': spec,
      'handlers/my_cool_api_handler.ts': handler,
      'handlers/helper.ts': 'export const x = 1;\n',
      'handlers/types_handler.d.ts': 'export {};\n',
      'handlers/notes.md': '# not a handler\n',
    });
    server = await startServer(dir);
  });
  afterAll(async () => {
    await server.close();
    removeWorkspace(dir);
  });

  it('mounts my_cool_api_handler.ts at /api/adaptive/my-cool-api and loads only handler files', async () => {
    expect(server.gateway.files('handler')).toEqual(['my_cool_api_handler.ts']);
    expect((await server.inject({ method: 'GET', url: '/api/adaptive/my-cool-api/extra' })).json()).toEqual({ n: 1 });
  });

  it('lets a handler route override the spec route with the same method and path; other spec routes stay', async () => {
    expect((await server.inject({ method: 'GET', url: '/api/adaptive/my-cool-api/items' })).json()).toEqual({
      from: 'handler',
    });
    expect((await server.inject({ method: 'GET', url: '/api/adaptive/my-cool-api/items/3' })).json()).toEqual({
      from: 'spec-item',
    });
    const endpoints = (await server.inject({ method: 'GET', url: '/api/adaptive/' })).json().endpoints;
    expect(endpoints).toContainEqual({
      method: 'GET',
      path: '/api/adaptive/my-cool-api/items',
      source: 'handler',
      file: 'my_cool_api_handler.ts',
    });
    expect(endpoints).toContainEqual({
      method: 'GET',
      path: '/api/adaptive/my-cool-api/items/{id}',
      source: 'spec',
      file: 'cool.openapi.yaml',
    });
  });

  it('documents overriding and handler-only routes in openapi.json', async () => {
    const doc = (await server.inject({ method: 'GET', url: '/api/adaptive/openapi.json' })).json();
    expect(doc.paths['/my-cool-api/items'].get).toMatchObject({
      summary: 'From the handler',
      // What the handler does not declare keeps the spec's documentation.
      description: 'Items of the spec',
      parameters: [{ name: 'limit', in: 'query' }],
      responses: {
        '200': { content: { 'application/json': { schema: { type: 'object' } } } },
        '404': { description: 'none' },
      },
    });
    expect(doc.paths['/my-cool-api/extra'].get).toMatchObject({
      summary: 'Only in the handler',
      responses: {
        '200': {
          content: { 'application/json': { schema: { type: 'object', properties: { n: { type: 'integer' } } } } },
        },
      },
    });
    expect(doc.paths['/my-cool-api/items/{id}'].get.responses['200']).toBeDefined();
  });

  it('brings the spec route back when the handler is removed', async () => {
    fs.renameSync(path.join(dir, 'handlers/my_cool_api_handler.ts'), path.join(dir, 'handlers/my_cool_api.ts.off'));
    try {
      await refresh(server);
      expect((await server.inject({ method: 'GET', url: '/api/adaptive/my-cool-api/items' })).json()).toEqual({
        from: 'spec',
      });
      expect((await server.inject({ method: 'GET', url: '/api/adaptive/my-cool-api/extra' })).statusCode).toBe(404);
    } finally {
      fs.renameSync(path.join(dir, 'handlers/my_cool_api.ts.off'), path.join(dir, 'handlers/my_cool_api_handler.ts'));
      await refresh(server);
    }
  });
});
