import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer, writeFile } from '../test-support/workspace.js';

const shop = `openapi: 3.0.3
info: {title: Shop, version: 1.0.0}
servers: [{url: /api/adaptive/shop}]
paths:
  /items:
    get:
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 1}}
        - {name: X-Tenant, in: header, required: false, schema: {type: string, enum: [a, b]}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              examples:
                few: {value: {items: [1], count: 1}}
                many: {value: {items: [1, 2, 3], count: 3}}
            text/plain:
              example: 'three items'
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/NewItem'}
      responses:
        '201': {description: created, content: {application/json: {example: {id: 7, name: example, price: 1.5}}}}
        '400': {description: bad, content: {application/json: {example: {detail: invalid}}}}
  /search:
    get:
      parameters: [{name: q, in: query, schema: {type: string, minLength: 2}}]
      responses: {'200': {description: ok, content: {application/json: {example: {hits: []}}}}}
  /lookup:
    get:
      parameters: [{name: sku, in: query, required: true, schema: {type: string}}]
      responses: {'200': {description: ok, content: {application/json: {example: {sku: x}}}}}
  /items/stats:
    get:
      responses: {'200': {description: ok, content: {application/json: {example: {kind: stats}}}}}
  /items/{itemId}:
    parameters: [{name: itemId, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
        '404': {description: Item not found, content: {application/json: {example: {detail: not found}}}}
    put:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/NewItem'}}}}
      responses: {'200': {description: ok, content: {application/json: {example: {id: 7, name: put, price: 2}}}}}
    patch:
      responses: {'200': {description: ok, content: {application/json: {example: {id: 7, name: patched, price: 3}}}}}
    delete:
      responses: {'204': {description: deleted}}
components:
  schemas:
    NewItem:
      type: object
      required: [name]
      properties: {name: {type: string, minLength: 1}, price: {type: number}}
    Item:
      type: object
      properties: {id: {type: integer, example: 42}, name: {type: string, default: widget}}
`;

let workspace: string;
let app: FastifyInstance;

beforeAll(async () => {
  workspace = makeWorkspace({ 'specs/shop.openapi.yaml': shop });
  app = await startServer(workspace);
});
afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

/** A spec at `/api/adaptive/<mount>` with one `GET /item` whose answer is its own component `Item`. */
const itemSpec = (mount: string, example: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: mount, version: '1' },
    servers: [{ url: `/api/adaptive/${mount}` }],
    paths: {
      '/item': {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
            },
          },
        },
      },
    },
    components: { schemas: { Item: { type: 'string', example } } },
  });

describe('generated routes', () => {
  it('serves every method', async () => {
    expect((await get('/api/adaptive/shop/items')).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: '/api/adaptive/shop/items', payload: { name: 'x' } })).statusCode,
    ).toBe(201);
    expect(
      (await app.inject({ method: 'PUT', url: '/api/adaptive/shop/items/1', payload: { name: 'y' } })).json(),
    ).toEqual({ id: 7, name: 'y', price: 2 });
    expect((await app.inject({ method: 'PATCH', url: '/api/adaptive/shop/items/1' })).json()).toEqual({
      id: 7,
      name: 'patched',
      price: 3,
    });
    const deleted = await app.inject({ method: 'DELETE', url: '/api/adaptive/shop/items/1' });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const head = await app.inject({ method: 'HEAD', url: '/api/adaptive/shop/items' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('picks the media type example, then the first named example, then the schema example/default/sample', async () => {
    expect((await get('/api/adaptive/shop/items')).json()).toEqual({ items: [1], count: 1 });
    expect((await get('/api/adaptive/shop/items/3')).json()).toEqual({ id: 42, name: 'widget' });
  });

  it('honours Prefer: example= and Prefer: code=', async () => {
    expect((await get('/api/adaptive/shop/items', { prefer: 'example=many' })).json()).toEqual({
      items: [1, 2, 3],
      count: 3,
    });
    const unknown = await get('/api/adaptive/shop/items', { prefer: 'example=unknown' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toMatch(
      /^Prefer: example=unknown names no example of GET \/items 200 application\/json \(examples: /,
    );
    const missing = await get('/api/adaptive/shop/items/3', { prefer: 'code=404' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'not found' });
  });

  it('negotiates the media type and answers 406 when nothing fits', async () => {
    const text = await get('/api/adaptive/shop/items', { accept: 'text/plain' });
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.body).toBe('three items');
    const refused = await get('/api/adaptive/shop/items', { accept: 'image/png' });
    expect(refused.statusCode).toBe(406);
    expect(refused.json().detail).toMatch(/application\/json, text\/plain/);
  });

  it('echoes the request body merged over the example on POST', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/adaptive/shop/items',
      payload: { name: 'lamp', colour: 'red' },
    });
    expect(created.json()).toEqual({ id: 7, name: 'lamp', price: 1.5, colour: 'red' });
  });

  it('prefers concrete path segments to templated ones', async () => {
    expect((await get('/api/adaptive/shop/items/stats')).json()).toEqual({ kind: 'stats' });
  });

  it('answers 404 and 405 with {detail, code}', async () => {
    const notFound = await get('/api/adaptive/shop/nothing');
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json()).toEqual({ detail: 'No route for GET /api/adaptive/shop/nothing', code: 'NOT_FOUND' });
    const notAllowed = await app.inject({ method: 'DELETE', url: '/api/adaptive/shop/items' });
    expect(notAllowed.statusCode).toBe(405);
    expect(notAllowed.headers.allow).toBe('GET, POST');
    expect(notAllowed.json()).toEqual({
      detail: 'Method DELETE is not allowed on /api/adaptive/shop/items',
      code: 'METHOD_NOT_ALLOWED',
    });
  });
});

describe('request validation', () => {
  it('rejects bad path, query and header parameters with {detail, errors}', async () => {
    const path = await get('/api/adaptive/shop/items/abc');
    expect(path.statusCode).toBe(400);
    expect(path.json()).toMatchObject({ errors: [{ in: 'path', name: 'itemId', message: 'must be integer' }] });
    expect(path.json().detail).toMatch(/^Request validation failed: path itemId must be integer/);
    const query = await get('/api/adaptive/shop/items?limit=0');
    expect(query.json().errors).toEqual([{ in: 'query', name: 'limit', message: 'must be >= 1' }]);
    const header = await get('/api/adaptive/shop/items', { 'x-tenant': 'c' });
    expect(header.json().errors[0]).toMatchObject({ in: 'header', name: 'x-tenant' });
  });

  it('checks optional query parameters only when there is a query string, and required ones always', async () => {
    expect((await get('/api/adaptive/shop/search')).statusCode).toBe(200);
    expect((await get('/api/adaptive/shop/search?q=ab')).statusCode).toBe(200);
    expect((await get('/api/adaptive/shop/search?q=a')).json().errors).toEqual([
      { in: 'query', name: 'q', message: 'must NOT have fewer than 2 characters' },
    ]);
    const missing = await get('/api/adaptive/shop/lookup');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0]).toMatchObject({ in: 'query', name: 'sku' });
  });

  it('coerces valid parameters', async () => {
    expect((await get('/api/adaptive/shop/items?limit=5')).statusCode).toBe(200);
  });

  it('rejects a missing or invalid JSON body, in the shape of the declared 400 example', async () => {
    const missing = await app.inject({ method: 'POST', url: '/api/adaptive/shop/items' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ detail: 'Request validation failed: body a request body is required' });
    const invalid = await app.inject({ method: 'POST', url: '/api/adaptive/shop/items', payload: { price: 'free' } });
    expect(invalid.json()).toEqual({
      detail: 'Request validation failed: body name is required; body price must be number',
    });
  });

  it('rejects malformed JSON and undeclared media types without leaking internals', async () => {
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/adaptive/shop/items',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      detail: expect.stringMatching(/^Request validation failed: body is not valid JSON \(/),
      code: 'VALIDATION_FAILED',
      errors: [{ in: 'body', name: '', message: expect.stringMatching(/^is not valid JSON/) }],
    });
    expect(malformed.body).not.toMatch(/at .*\.js/);
    const xml = await app.inject({
      method: 'POST',
      url: '/api/adaptive/shop/items',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().detail).toMatch(/application\/xml is not accepted/);
    const proto = await app.inject({
      method: 'POST',
      url: '/api/adaptive/shop/items',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"x","__proto__":{"admin":true}}',
    });
    expect(proto.statusCode).toBe(400);
  });
});

describe('system endpoints', () => {
  it('lists the gateway and its endpoints', async () => {
    const info = (await get('/api/adaptive/')).json();
    expect(info).toMatchObject({ name: 'adaptive-workbench', specs: ['shop.openapi.yaml'], handlers: [] });
    expect(info.endpoints).toContainEqual({
      method: 'GET',
      path: '/api/adaptive/shop/items/{itemId}',
      source: 'spec',
      file: 'shop.openapi.yaml',
    });
  });

  it('merges specs into one OpenAPI document with the security schemes', async () => {
    const document = (await get('/api/adaptive/openapi.json')).json();
    expect(document.servers).toEqual([{ url: '/api/adaptive' }]);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/shop/items', '/shop/items/{itemId}', '/shop/items/stats']),
    );
    expect(document.paths['/shop/items/{itemId}'].get.parameters[0]).toMatchObject({ name: 'itemId', in: 'path' });
    expect(document.components.securitySchemes).toMatchObject({
      df_basic: { scheme: 'basic' },
      df_bearer_jwt: { scheme: 'bearer' },
    });
    expect(document.components.schemas.NewItem).toBeDefined();
  });

  it('serves Swagger UI from local files', async () => {
    const page = await get('/api/adaptive/swagger-ui/');
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.body).not.toMatch(/https?:\/\//);
    const bundle = await get('/api/adaptive/swagger-ui/swagger-ui-bundle.js');
    expect(bundle.statusCode).toBe(200);
    expect((await get('/api/adaptive/swagger-ui/..%2f..%2fpackage.json')).statusCode).toBe(404);
  });

  it('redirects Swagger UI without its trailing slash, whose relative assets would not load', async () => {
    const bare = await get('/api/adaptive/swagger-ui');
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/api/adaptive/swagger-ui/');
    expect((await get('/api/adaptive/swagger-ui?x=1')).headers.location).toBe('/api/adaptive/swagger-ui/?x=1');
  });

  it('answers the actuator endpoints', async () => {
    expect((await get('/api/adaptive/actuator/health/liveness')).json()).toEqual({ status: 'UP' });
    expect((await get('/api/adaptive/actuator/health/readiness')).json()).toEqual({ status: 'UP' });
    const info = (await get('/api/adaptive/actuator/info')).json();
    expect(info).toMatchObject({
      app: { name: 'adaptive-workbench' },
      hot_reload: false,
      auth_enabled: false,
      specs: ['shop.openapi.yaml'],
    });
    expect(info.uptime_s).toBeGreaterThanOrEqual(0);
  });
});

describe('CORS, body limit and slow clients', () => {
  it('answers preflight requests for generated routes', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/adaptive/shop/items',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toContain('PATCH');
    expect(
      (await get('/api/adaptive/shop/items', { origin: 'http://localhost:5173' })).headers[
        'access-control-allow-origin'
      ],
    ).toBe('*');
  });

  it('allows only the configured origins, with credentials', async () => {
    const restricted = await startServer(workspace, { CORS_ORIGINS: 'https://app.example.com' });
    try {
      const allowed = await restricted.inject({
        method: 'GET',
        url: '/api/adaptive/shop/items',
        headers: { origin: 'https://app.example.com' },
      });
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(allowed.headers['access-control-allow-credentials']).toBe('true');
      const other = await restricted.inject({
        method: 'GET',
        url: '/api/adaptive/shop/items',
        headers: { origin: 'https://evil.example' },
      });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await restricted.close();
    }
  });

  it('answers 413 to a body over the limit', async () => {
    const small = await startServer(workspace, { BODY_LIMIT: '100' });
    try {
      const response = await small.inject({
        method: 'POST',
        url: '/api/adaptive/shop/items',
        payload: { name: 'x'.repeat(200) },
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({
        detail: 'Request body is larger than the limit of 100 bytes',
        code: 'BODY_TOO_LARGE',
      });
    } finally {
      await small.close();
    }
  });

  it('cuts off a client that does not finish its request', async () => {
    const strict = await startServer(workspace, { REQUEST_TIMEOUT_MS: '300' });
    await strict.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (strict.server.address() as net.AddressInfo).port;
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(
            'POST /api/adaptive/shop/items HTTP/1.1\r\nHost: localhost\r\nContent-Type: ' +
              'application/json\r\nContent-Length: 100\r\n\r\n{"na',
          );
        });
        let data = '';
        socket.on('data', (chunk) => (data += chunk));
        socket.on('close', () => resolve(data));
      });
      expect(answer).toMatch(/^HTTP\/1.1 408/);
    } finally {
      await strict.close();
    }
  });
});

describe('reload', () => {
  let scratch: string;
  let server: FastifyInstance;
  afterEach(async () => {
    await server?.close();
    removeWorkspace(scratch);
  });

  it('refresh reports loaded files, picks up new files, and drops deleted ones', async () => {
    scratch = makeWorkspace({ 'specs/shop.openapi.yaml': shop });
    server = await startServer(scratch);
    writeFile(
      scratch,
      'specs/extra.openapi.json',
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'x', version: '1' },
        paths: {
          '/ping': {
            get: {
              responses: { '200': { description: 'ok', content: { 'application/json': { example: { pong: true } } } } },
            },
          },
        },
      }),
    );
    const refresh = await server.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' });
    expect(refresh.json()).toEqual({
      status: 'success',
      message: expect.stringMatching(/^Loaded 2 specs and 0 handlers/),
      handlers: [],
      specs: ['extra.openapi.json', 'shop.openapi.yaml'],
      errors: [],
      skipped: [],
    });
    expect((await server.inject({ method: 'GET', url: '/api/adaptive/extra/ping' })).json()).toEqual({ pong: true });
    // A deleted file's faults go with it (they would stay in Problems for code that no longer runs); others stay.
    for (const file of ['extra.openapi.json', 'shop.openapi.yaml'])
      server.gateway.faults.record({ file, message: 'x' });
    fs.unlinkSync(path.join(scratch, 'specs/extra.openapi.json'));
    await server.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' });
    expect((await server.inject({ method: 'GET', url: '/api/adaptive/extra/ping' })).statusCode).toBe(404);
    expect(server.gateway.faults.list().map((fault) => fault.file)).toEqual(['shop.openapi.yaml']);
  });

  it('keeps the last good version of a spec that breaks, and reports where it broke', async () => {
    scratch = makeWorkspace({ 'specs/shop.openapi.yaml': shop });
    server = await startServer(scratch);
    writeFile(scratch, 'specs/shop.openapi.yaml', shop.replace('paths:', 'paths: [oops\n  bad: :'));
    const refresh = (await server.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json();
    expect(refresh.status).toBe('partial');
    expect(refresh.specs).toEqual(['shop.openapi.yaml']);
    expect(refresh.errors).toEqual([
      {
        file: 'shop.openapi.yaml',
        message: expect.stringMatching(/^invalid YAML/),
        line: expect.any(Number),
        column: expect.any(Number),
      },
    ]);
    expect((await server.inject({ method: 'GET', url: '/api/adaptive/shop/items' })).statusCode).toBe(200);
  });

  it('reports failed when nothing loads', async () => {
    scratch = makeWorkspace({ 'specs/bad.openapi.yaml': '[1]' });
    server = await startServer(scratch);
    const refresh = (await server.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json();
    expect(refresh).toMatchObject({ status: 'failed', specs: [], errors: [{ file: 'bad.openapi.yaml' }] });
  });

  it('two specs defining the same component keep both, renamed, in the merged document', async () => {
    scratch = makeWorkspace({
      'specs/a.openapi.json': itemSpec('a', 'from a'),
      'specs/b.openapi.json': itemSpec('b', 'from b'),
    });
    server = await startServer(scratch);
    const document = (await server.inject({ method: 'GET', url: '/api/adaptive/openapi.json' })).json();
    expect(Object.keys(document.components.schemas).sort()).toEqual(['a.openapi.Item', 'b.openapi.Item']);
    expect(document.paths['/b/item'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/b.openapi.Item',
    });
  });

  it("renames a spec's shared components in the merged document when another spec comes to share them", async () => {
    type Merged = {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>;
      components: { schemas: Record<string, unknown> };
    };
    const itemRef = (document: Merged, route: string) =>
      document.paths[route].get.responses['200'].content['application/json'].schema;
    scratch = makeWorkspace({ 'specs/a.openapi.json': itemSpec('a', 'a') });
    server = await startServer(scratch);
    const merged = async () =>
      (await server.inject({ method: 'GET', url: '/api/adaptive/openapi.json' })).json<Merged>();
    expect(itemRef(await merged(), '/a/item')).toEqual({ $ref: '#/components/schemas/Item' });

    // b shares the name: a's parts, unchanged on disk, are renamed too (they were kept from the last document).
    fs.writeFileSync(path.join(scratch, 'specs/b.openapi.json'), itemSpec('b', 'b'));
    await server.gateway.reload();
    const both = await merged();
    expect(itemRef(both, '/a/item')).toEqual({ $ref: '#/components/schemas/a.openapi.Item' });
    expect(itemRef(both, '/b/item')).toEqual({ $ref: '#/components/schemas/b.openapi.Item' });
    expect(Object.keys(both.components.schemas).sort()).toEqual(['a.openapi.Item', 'b.openapi.Item']);
    // What the health check reports, counted from the table without parsing the document.
    expect(await server.gateway.openApiPathCount()).toBe(Object.keys(both.paths).length);

    // b gone: a's own names come back.
    fs.rmSync(path.join(scratch, 'specs/b.openapi.json'));
    await server.gateway.reload();
    const alone = await merged();
    expect(itemRef(alone, '/a/item')).toEqual({ $ref: '#/components/schemas/Item' });
    expect(alone.components.schemas).toEqual({ Item: { type: 'string', example: 'a' } });
  });

  it('the watcher picks up a new spec file without a refresh call', async () => {
    scratch = makeWorkspace({ 'specs/shop.openapi.yaml': shop });
    server = await startServer(scratch, { HOT_RELOAD: 'true' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    writeFile(
      scratch,
      'specs/late.openapi.json',
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'late', version: '1' },
        paths: {
          '/hello': {
            get: { responses: { '200': { description: 'ok', content: { 'application/json': { example: 'hi' } } } } },
          },
        },
      }),
    );
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await server.inject({ method: 'GET', url: '/api/adaptive/late/hello' })).statusCode;
    }
    expect(status).toBe(200);
  });

  it('no request fails while the gateway reloads', async () => {
    scratch = makeWorkspace({ 'specs/shop.openapi.yaml': shop });
    server = await startServer(scratch);
    await server.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(server.server.address() as net.AddressInfo).port}/api/adaptive/shop/items`;
    let stop = false;
    const failures: string[] = [];
    let served = 0;
    const client = async () => {
      while (!stop) {
        const response = await fetch(url).catch((error: Error) => ({ status: error.message, text: async () => '' }));
        await response.text();
        if (response.status !== 200) failures.push(String(response.status));
        served++;
      }
    };
    const clients = Array.from({ length: 20 }, client);
    // At least five reloads, and as many more as it takes for the clients to be served 100 times meanwhile
    // (a reload of one spec takes a few milliseconds in a warm spec worker).
    let reloads = 0;
    for (; reloads < 5 || (served <= 100 && reloads < 1000); reloads++) {
      writeFile(scratch, 'specs/shop.openapi.yaml', shop.replace('count: 3', `count: ${reloads}`));
      const result = await server.gateway.reload();
      expect(result.status).toBe('success');
    }
    stop = true;
    await Promise.all(clients);
    expect(served).toBeGreaterThan(100);
    expect(failures).toEqual([]);
    const many = await server.inject({ url: '/api/adaptive/shop/items', headers: { prefer: 'example=many' } });
    expect(many.json().count).toBe(reloads - 1);
  }, 120_000);

  it('reloads a spec when a file it references changes, and reuses unchanged specs', async () => {
    scratch = makeWorkspace({
      'specs/ref.openapi.yaml':
        "openapi: 3.0.3\ninfo: {title: r, version: '1'}\npaths:\n  /v: {get: {responses: {'200': {description: " +
        "ok, content: {application/json: {schema: {$ref: 'parts/value.yaml'}}}}}}}\n",
      'specs/parts/value.yaml': 'type: string\nexample: first\n',
    });
    server = await startServer(scratch);
    const before = server.gateway.loadedUnits[0];
    await server.gateway.reload();
    expect(server.gateway.loadedUnits[0]).toBe(before);
    writeFile(scratch, 'specs/parts/value.yaml', 'type: string\nexample: second\n');
    await server.gateway.reload();
    expect((await server.inject({ url: '/api/adaptive/ref/v' })).json()).toBe('second');
  });
});
