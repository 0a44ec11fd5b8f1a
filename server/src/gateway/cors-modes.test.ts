import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';
import { declaredResponseHeaders } from './cors.js';

const item = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
const spec = (extension: Record<string, unknown>) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'cors', version: '1' },
    ...extension,
    paths: {
      '/items': {
        get: {
          responses: {
            '200': {
              description: 'all',
              headers: { 'X-Rate-Limit': { schema: { type: 'integer', example: 10 } } },
              content: { 'application/json': { schema: { type: 'array', items: item }, example: [{ id: 1 }] } },
            },
            '404': { $ref: '#/components/responses/Missing' },
          },
        },
      },
      '/items/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': { description: 'one', content: { 'application/json': { schema: item } } } },
        },
      },
    },
    components: {
      responses: { Missing: { description: 'none', headers: { 'X-Missing-Reason': { schema: { type: 'string' } } } } },
    },
  });

const origin = 'http://app.test';
const upstream = http.createServer((_request, response) => {
  response.setHeader('content-type', 'application/json');
  response.setHeader('x-rate-limit', '5');
  response.end('[{"id":2}]');
});

let app: FastifyInstance;
let workspace: string;
let base: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  workspace = makeWorkspace({
    'specs/static.json': spec({}),
    'specs/dynamic.json': spec({ 'x-mock': { examples: 'dynamic', delay: 1 } }),
    'specs/kept.json': spec({ 'x-adaptive-state': true }),
    'specs/proxied.json': spec({ 'x-adaptive-proxy': `http://127.0.0.1:${port}` }),
    'specs/table.json': spec({}),
    'specs/table.mock.yaml': 'routes:\n  GET /items:\n    response: 200\n',
  });
  app = await startServer(workspace, { CORS_ORIGINS: origin });
  base = (await app.listen({ host: '127.0.0.1', port: 0 })) + '/api/adaptive';
});
afterAll(async () => {
  await app.close();
  await new Promise((resolve) => upstream.close(resolve));
  removeWorkspace(workspace);
});

const exposedOf = async (path: string) => {
  const response = await fetch(base + path, { headers: { origin } });
  expect(response.status).toBe(200);
  expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  return { response, exposed: (response.headers.get('access-control-expose-headers') ?? '').split(', ') };
};

describe('CORS with credentials exposes the mock and spec headers in every mode', () => {
  it.each(['static', 'dynamic', 'kept', 'proxied', 'table'])('%s', async (mount) => {
    const { response, exposed } = await exposedOf(`/${mount}/items`);
    expect(exposed).not.toContain('*');
    expect(exposed).toEqual(
      expect.arrayContaining([
        'x-adaptive-mode',
        'x-mock-fault',
        'x-adaptive-mock-rule',
        'x-adaptive-violations',
        'location',
        'etag',
        'x-rate-limit',
        'x-missing-reason',
      ]),
    );
    // Every header the answer carries beyond the safelisted ones is readable by the page.
    for (const name of ['x-adaptive-mode', 'x-mock-fault', 'x-adaptive-mock-rule', 'x-rate-limit'])
      if (response.headers.has(name)) expect(exposed).toContain(name);
  });

  it('names no declared headers where the operation declares none, and none for an unlisted origin', async () => {
    const { exposed } = await exposedOf('/static/items/1');
    expect(exposed).not.toContain('x-rate-limit');
    const refused = await fetch(`${base}/static/items`, { headers: { origin: 'http://evil.test' } });
    expect(refused.headers.get('access-control-expose-headers')).toBeNull();
  });

  it('answers the preflight of a listed origin', async () => {
    const preflight = await fetch(`${base}/static/items`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'prefer' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('prefer');
  });
});

describe('declaredResponseHeaders', () => {
  it('reads headers through $refs, lower case, without Content-Type, and survives broken documents', () => {
    const document = {
      paths: {
        '/a': {
          get: {
            responses: {
              '200': { headers: { ETag: {}, 'Content-Type': {} } },
              '201': { $ref: '#/components/responses/Made' },
              '500': 'nonsense',
            },
          },
        },
      },
      components: { responses: { Made: { headers: { $ref: '#/components/headerSets/Made' } } }, headerSets: {} },
    };
    expect(declaredResponseHeaders(document, '#/paths/~1a/get')).toBe('etag');
    expect(declaredResponseHeaders(document, '#/paths/~1b/get')).toBeUndefined();
    expect(declaredResponseHeaders({ paths: { '/a': { get: { responses: 7 } } } }, '#/paths/~1a/get')).toBeUndefined();
  });
});
