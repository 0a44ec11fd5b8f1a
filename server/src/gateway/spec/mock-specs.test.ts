import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../main/app.js';
import { loadConfig } from '../../core/config.js';
import { makeWorkspace, removeWorkspace, startServer, writeFile } from '../../test-support/workspace.js';

/** An OpenAPI document with one GET operation answering `example`, served at `server` when given. */
const openApi = (route: string, example: unknown, server?: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: route, version: '1' },
    ...(server === undefined ? {} : { servers: [{ url: server }] }),
    paths: {
      [route]: { get: { responses: { '200': { description: 'ok', content: { 'application/json': { example } } } } } },
    },
  });

let scratch: string;
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  removeWorkspace(scratch);
});

/** A server in mock mode on `specPaths` (relative to the scratch folder), first load finished. */
async function mock(specPaths: string[], env: Record<string, string> = {}): Promise<FastifyInstance> {
  const config = loadConfig(
    { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', ...env },
    { workspace: scratch, specPaths: specPaths.map((p) => path.join(scratch, p)) },
  );
  const server = await buildServer(config, { logger: pino({ level: 'silent' }) });
  await server.ready();
  await server.gateway.start();
  return server;
}

const get = async (url: string) => {
  const response = await app!.inject({ url });
  return { status: response.statusCode, body: response.json() };
};

describe('mock mode (serve <file|folder>...)', () => {
  it(
    'serves one file at the path of its servers[0].url, with the actuator, Swagger UI and the merged document ' +
      'beside it',
    async () => {
      scratch = makeWorkspace({ 'petstore.yaml': openApi('/pets', [{ id: 1 }], 'https://petstore.example.com/v1/') });
      app = await mock(['petstore.yaml']);
      expect(await get('/v1/pets')).toEqual({ status: 200, body: [{ id: 1 }] });
      expect((await get('/api/adaptive/v1/pets')).status).toBe(404);
      expect(await get('/v1/cats')).toEqual({
        status: 404,
        body: { detail: 'No route for GET /v1/cats', code: 'NOT_FOUND' },
      });
      expect(await get('/api/adaptive/actuator/health/readiness')).toEqual({ status: 200, body: { status: 'UP' } });
      expect((await app.inject({ url: '/api/adaptive/swagger-ui/' })).statusCode).toBe(200);
      const document = (await get('/api/adaptive/openapi.json')).body;
      expect(document.servers).toEqual([{ url: '/' }]);
      expect(Object.keys(document.paths)).toEqual(['/v1/pets']);
      expect((await get('/api/adaptive/')).body.endpoints).toEqual([
        { method: 'GET', path: '/v1/pets', source: 'spec', file: 'petstore.yaml' },
      ]);
      // No query service without a workspace: its path is just another unknown route.
      expect(await get('/api/v1/query/sources')).toEqual({
        status: 404,
        body: { detail: 'No route for GET /api/v1/query/sources', code: 'NOT_FOUND' },
      });
    },
  );

  it('serves a spec without servers at /, and several files and a folder together', async () => {
    scratch = makeWorkspace({
      'root.json': openApi('/health', 'root'),
      'one/orders.yml': openApi('/orders', 'orders', '/shop'),
      'many/a.yaml': openApi('/a', 'a', '/api/a'),
      'many/b.json': openApi('/b', 'b', 'http://b.example.com'),
    });
    app = await mock(['root.json', 'one/orders.yml', 'many']);
    expect(await get('/health')).toEqual({ status: 200, body: 'root' });
    expect(await get('/shop/orders')).toEqual({ status: 200, body: 'orders' });
    expect(await get('/api/a/a')).toEqual({ status: 200, body: 'a' });
    expect(await get('/b')).toEqual({ status: 200, body: 'b' });
    expect((await get('/api/adaptive/')).body.specs).toEqual(['a.yaml', 'b.json', 'orders.yml', 'root.json']);
  });

  it('reloads a named file when it changes, and serves nothing from files it was not given', async () => {
    scratch = makeWorkspace({
      'petstore.yaml': openApi('/pets', 'v1', '/v1'),
      'neighbour.yaml': openApi('/neighbour', 'no'),
    });
    app = await mock(['petstore.yaml'], { HOT_RELOAD: 'true' });
    expect((await get('/neighbour')).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 300));
    writeFile(scratch, 'petstore.yaml', openApi('/pets', 'v2', '/v2'));
    let answer = await get('/v2/pets');
    for (let attempt = 0; attempt < 100 && answer.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await get('/v2/pets');
    }
    expect(answer).toEqual({ status: 200, body: 'v2' });
    expect((await get('/v1/pets')).status).toBe(404);
  });

  it('reports a named file that is not OpenAPI as an error, and skips one in a folder with its reason', async () => {
    scratch = makeWorkspace({
      'notes.yaml': 'title: my notes\n',
      'folder/api.yaml': openApi('/x', 'x'),
      'folder/shared.json': '{"Pet": {"type": "object"}}',
    });
    app = await mock(['notes.yaml', 'folder']);
    const refresh = (await app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json();
    expect(refresh).toMatchObject({
      status: 'partial',
      specs: ['api.yaml'],
      errors: [{ file: 'notes.yaml', message: expect.stringContaining('"openapi" must be a version string') }],
    });
    expect(refresh.skipped).toEqual([
      { file: 'shared.json', reason: expect.stringContaining('"openapi" must be a version string') },
    ]);
    expect((await get('/x')).status).toBe(200);
  });

  it('refuses AUTH_ENABLED=true: mock routes would be served without it', () => {
    expect(() => loadConfig({ AUTH_ENABLED: 'true' }, { specPaths: ['petstore.yaml'] })).toThrow(
      /AUTH_ENABLED="true" is not valid: expected false when serving spec files/,
    );
  });
});

describe('the specs folder of a workspace', () => {
  it('serves any OpenAPI 3.x .yaml/.json file, and lists other files as skipped with the reason', async () => {
    scratch = makeWorkspace({
      'specs/petstore.yaml': openApi('/pets', 'pets'),
      'specs/common.json': '{"components": {}}',
      'specs/old.yaml': 'swagger: "1.2"\ninfo: {title: x, version: "1"}\npaths: {}\n',
      'specs/legacy.openapi.yaml': 'swagger: "1.2"\ninfo: {title: x, version: "1"}\npaths: {}\n',
      'specs/README.md': '# not read',
    });
    app = await startServer(scratch);
    expect(await get('/api/adaptive/petstore/pets')).toEqual({ status: 200, body: 'pets' });
    const refresh = (await app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json();
    expect(refresh.specs).toEqual(['petstore.yaml']);
    expect(refresh.message).toMatch(/; 2 files not loaded \(listed in skipped\)$/);
    expect(refresh.skipped).toEqual([
      { file: 'common.json', reason: expect.stringContaining('"openapi" must be a version string') },
      { file: 'old.yaml', reason: expect.stringContaining('Swagger 1.2 is not supported') },
    ]);
    // Named as a spec: a document that is not OpenAPI 3.x there is a fault to fix, not a file to skip.
    expect(refresh.errors).toEqual([{ file: 'legacy.openapi.yaml', message: expect.stringContaining('Swagger 1.2') }]);
  });

  it('stops serving a spec that turns into another kind of file, and serves it again when it turns back', async () => {
    scratch = makeWorkspace({ 'specs/petstore.yaml': openApi('/pets', 'pets') });
    app = await startServer(scratch);
    writeFile(scratch, 'specs/petstore.yaml', 'just: data\n');
    const refresh = (await app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json();
    expect(refresh).toMatchObject({ specs: [], errors: [], skipped: [{ file: 'petstore.yaml' }] });
    expect((await get('/api/adaptive/petstore/pets')).status).toBe(404);
    fs.writeFileSync(path.join(scratch, 'specs/petstore.yaml'), openApi('/pets', 'back'));
    await app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' });
    expect(await get('/api/adaptive/petstore/pets')).toEqual({ status: 200, body: 'back' });
  });
});
