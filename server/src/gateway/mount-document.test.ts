import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer, writeFile } from '../test-support/workspace.js';

const spec = (mount: string, path: string) => `openapi: 3.0.3
info: {title: ${mount}, version: 1.0.0}
servers: [{url: /api/adaptive/${mount}}]
paths:
  ${path}:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
components:
  schemas:
    Thing: {type: object, properties: {name: {type: string}}}
`;

let workspace: string;
let app: FastifyInstance;

beforeAll(async () => {
  workspace = makeWorkspace({
    'specs/cats.openapi.yaml': spec('cats', '/cats'),
    'specs/dogs.openapi.yaml': spec('dogs', '/dogs'),
  });
  app = await startServer(workspace);
}, 60_000);

afterAll(async () => {
  await app?.close();
  removeWorkspace(workspace);
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });

describe('GET /api/adaptive/openapi.json?mount=<mount>', () => {
  it("serves one mount's own document: its paths and components, nothing of the others", async () => {
    const response = await get('/api/adaptive/openapi.json?mount=cats');
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(Object.keys(document.paths)).toEqual(['/cats/cats']);
    expect(document.servers).toEqual([{ url: '/api/adaptive' }]);
    expect(document.components.schemas).toHaveProperty('Thing');
    const all = (await get('/api/adaptive/openapi.json')).json();
    expect(Object.keys(all.paths).sort()).toEqual(['/cats/cats', '/dogs/dogs']);
  });

  it('answers 304 to its ETag and compresses as the merged document does, once per reload', async () => {
    const first = await get('/api/adaptive/openapi.json?mount=dogs');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    expect(etag).not.toBe((await get('/api/adaptive/openapi.json')).headers.etag);
    expect((await get('/api/adaptive/openapi.json?mount=dogs', { 'if-none-match': etag })).statusCode).toBe(304);
    const br = await get('/api/adaptive/openapi.json?mount=dogs', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(first.json());

    // A save that changes the spec makes a new version; the old ETag no longer matches.
    writeFile(workspace, 'specs/dogs.openapi.yaml', spec('dogs', '/puppies'));
    await app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' });
    const changed = await get('/api/adaptive/openapi.json?mount=dogs', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(Object.keys(changed.json().paths)).toEqual(['/dogs/puppies']);
  });

  it('refuses a mount nothing is served at with {detail} naming those that are', async () => {
    for (const query of ['mount=birds', 'mount=', 'mount=cats&mount=dogs', 'mount=..%2Fcats']) {
      const response = await get(`/api/adaptive/openapi.json?${query}`);
      expect(response.statusCode, query).toBe(404);
      expect(response.json(), query).toEqual({
        detail: expect.stringContaining('the gateway serves: cats, dogs'),
        code: 'OPENAPI_MOUNT_NOT_FOUND',
      });
    }
  });
});
