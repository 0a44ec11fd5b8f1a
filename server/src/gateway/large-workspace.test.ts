import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedSpec, specName, writeGeneratedSpecs } from '../test-support/generated-specs.js';
import { makeWorkspace, removeWorkspace, startServer, writeFile } from '../test-support/workspace.js';

// A generated workspace of 1,000 paths (the benchmark loads 10,000): 20 specs of 50 paths, 125 operations each.
const specs = 20;
const paths = 50;
const operationsPerSpec = 125;
const sample = [9, 19];

let workspace: string;
let app: FastifyInstance;
let alone: { workspace: string; app: FastifyInstance };

beforeAll(async () => {
  workspace = makeWorkspace();
  writeGeneratedSpecs(path.join(workspace, 'specs'), specs, paths);
  const single = makeWorkspace({ [`specs/${specName(9)}.yaml`]: generatedSpec(9, paths) });
  [app, alone] = await Promise.all([
    startServer(workspace),
    startServer(single).then((server) => ({ workspace: single, app: server })),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([app?.close(), alone?.app.close()]);
  removeWorkspace(workspace);
  removeWorkspace(alone.workspace);
});

const base = (index: number) => `/api/adaptive/${specName(index)}/${specName(index)}`;
const refresh = async () => (await app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json();

interface OperationCase {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: object;
  headers?: Record<string, string>;
  status: number;
  /** What changes the request into one validation refuses. */
  invalid: { url?: string; payload?: object; headers?: Record<string, string> };
}

/** Every operation of generated spec `index`, each with a valid request, its status, and an invalid request. */
function operationsOf(index: number): OperationCase[] {
  const valid = { name: 'n', kind: 'alpha' };
  return Array.from({ length: paths / 2 }, (_, r): OperationCase[] => {
    const collection = `${base(index)}-res${r}`;
    const item = `${collection}/7`;
    return [
      { method: 'GET', url: `${collection}?limit=5`, status: 200, invalid: { url: `${collection}?limit=500` } },
      { method: 'POST', url: collection, body: valid, status: 201, invalid: { payload: { name: '', kind: 'delta' } } },
      { method: 'GET', url: item, status: 200, invalid: { url: `${collection}/0` } },
      { method: 'PUT', url: item, body: valid, status: 200, invalid: { payload: { name: 'n' } } },
      {
        method: 'DELETE',
        url: item,
        status: 204,
        invalid: { url: `${collection}/x`, headers: {} },
        headers: { 'x-request-id': '0b8f6c1e-8a5e-4a4e-9c1e-1f2a3b4c5d6e' },
      },
    ];
  }).flat();
}

describe('a generated workspace of 20 specs x 50 paths', () => {
  it('loads every spec and routes every operation', async () => {
    expect(app.gateway.files('spec')).toHaveLength(specs);
    expect(app.gateway.loadProblems).toEqual([]);
    expect(app.gateway.table.entries).toHaveLength(specs * operationsPerSpec);
    expect(app.gateway.table.conflicts).toEqual([]);
    for (let index = 0; index < specs; index++) {
      const answer = await app.inject(`${base(index)}-res24/3`);
      expect(answer.statusCode, specName(index)).toBe(200);
      expect(answer.json()).toMatchObject({ name: 'Example r0', kind: 'alpha' });
    }
    const wrongMethod = await app.inject({ method: 'PATCH', url: `${base(3)}-res2/1` });
    expect(wrongMethod.statusCode).toBe(405);
    expect((await app.inject(`${base(3)}-res25`)).statusCode).toBe(404);
  });

  it('answers and validates every operation of a sample of specs as the spec alone does', async () => {
    for (const index of sample) {
      for (const operation of operationsOf(index)) {
        const label = `${operation.method} ${operation.url}`;
        const headers = operation.headers ?? {};
        const request = { method: operation.method, url: operation.url, headers, payload: operation.body };
        const answer = await app.inject(request);
        expect(answer.statusCode, label).toBe(operation.status);
        const invalid = await app.inject({ ...request, ...operation.invalid });
        expect(invalid.statusCode, `${label} (invalid)`).toBe(400);
        expect(invalid.json().code, `${label} (invalid)`).toBe('VALIDATION_FAILED');
        if (index !== 9) continue;
        // The same requests to a workspace of this spec alone get the same answers, byte for byte.
        for (const same of [request, { ...request, ...operation.invalid }]) {
          const [large, single] = [await app.inject(same), await alone.app.inject(same)];
          expect({ status: large.statusCode, body: large.body }, label).toEqual({
            status: single.statusCode,
            body: single.body,
          });
        }
      }
    }
  }, 180_000);

  it('a refresh without changes keeps the route table; a changed spec is served, the others untouched', async () => {
    const table = app.gateway.table;
    expect((await refresh()).status).toBe('success');
    expect(app.gateway.table).toBe(table);
    // Every file rewritten with the same content, as a ConfigMap roll does: nothing to compile again.
    const later = new Date(Date.now() + 60_000);
    for (const name of fs.readdirSync(path.join(workspace, 'specs')))
      fs.utimesSync(path.join(workspace, 'specs', name), later, later);
    expect((await refresh()).status).toBe('success');
    expect(app.gateway.table).toBe(table);
    const untouched = app.gateway.table.entries.find((e) => e.file === `${specName(4)}.yaml`);
    writeFile(workspace, `specs/${specName(5)}.yaml`, generatedSpec(5, paths, 1));
    expect((await refresh()).status).toBe('success');
    expect(app.gateway.table).not.toBe(table);
    expect(app.gateway.table.entries).toContain(untouched);
    expect((await app.inject(`${base(5)}-res0/1`)).json().name).toBe('Example r1');
    expect((await app.inject(`${base(4)}-res0/1`)).json().name).toBe('Example r0');
  });

  it('an invalid spec among the valid ones is reported at load with its position; the others serve', async () => {
    writeFile(
      workspace,
      'specs/broken.yaml',
      'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n  /a: [unclosed\n',
    );
    // Registers no validator: two schemas claim one $id. Checked at load, though validators are made on first use.
    writeFile(
      workspace,
      'specs/ambiguous.yaml',
      `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /things:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}}
      responses: {'200': {description: ok}}
components:
  schemas:
    A: {$id: 'urn:same', type: object}
    B: {$id: 'urn:same', type: string}
`,
    );
    try {
      const result = await refresh();
      expect(result.status).toBe('partial');
      const byFile = Object.fromEntries(result.errors.map((e: { file: string }) => [e.file, e]));
      expect(byFile['broken.yaml']).toMatchObject({ line: expect.any(Number) });
      expect(byFile['ambiguous.yaml'].message).toMatch(/urn:same/);
      expect(
        (await app.inject({ method: 'POST', url: '/api/adaptive/ambiguous/things', payload: {} })).statusCode,
      ).toBe(404);
      expect(result.specs).toHaveLength(specs);
      expect((await app.inject(`${base(19)}-res0/1`)).statusCode).toBe(200);
    } finally {
      for (const name of ['broken.yaml', 'ambiguous.yaml']) fs.rmSync(path.join(workspace, 'specs', name));
    }
  });
});

describe('the merged openapi.json of a large workspace', () => {
  it('is served with an ETag, compressed as accepted, and 304 when unchanged', async () => {
    const plain = await app.inject('/api/adaptive/openapi.json');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const etag = String(plain.headers.etag);
    expect(Object.keys(plain.json().paths).length).toBeGreaterThanOrEqual(specs * paths);
    const br = await app.inject({ url: '/api/adaptive/openapi.json', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
    const gzip = await app.inject({
      url: '/api/adaptive/openapi.json',
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    const refused = await app.inject({ url: '/api/adaptive/openapi.json', headers: { 'accept-encoding': 'x, *;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const cached = await app.inject({ url: '/api/adaptive/openapi.json', headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    writeFile(workspace, `specs/${specName(6)}.yaml`, generatedSpec(6, paths, 3));
    await refresh();
    const changed = await app.inject({ url: '/api/adaptive/openapi.json', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('is built a slice at a time, the event loop turning between, and shared by the callers meanwhile', async () => {
    writeFile(workspace, `specs/${specName(7)}.yaml`, generatedSpec(7, paths, 4));
    await refresh();
    // A new table: its 2,500 operations are visited again (the unchanged ones' text is kept), 256 between turns.
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const [first, second] = await Promise.all([app.gateway.openApiDocument(), app.gateway.openApiDocument()]);
    counting = false;
    expect(turns).toBeGreaterThan(2);
    expect(second).toBe(first);
    expect(Object.keys(JSON.parse(first.json).paths).length).toBeGreaterThanOrEqual(specs * paths);
  });
});
