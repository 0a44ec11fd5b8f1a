import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';

const item = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
const withRateHeader = {
  description: 'one item',
  headers: {
    'X-Rate-Limit': { required: true, schema: { type: 'integer' } },
    'X-Trace': { $ref: '#/components/headers/Trace' },
    'X-Optional': { schema: { type: 'string' } },
  },
  content: { 'application/json': { schema: item } },
};
/** A spec proxied to `url`; `errors` turns the blocking mode on. */
const spec = (url: string, errors: boolean, mount: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: mount, version: '1' },
    servers: [{ url: `/api/adaptive/${mount}` }],
    'x-adaptive-proxy': { url, errors },
    paths: {
      '/good': { get: { responses: { '200': withRateHeader } } },
      '/no-header': { get: { responses: { '200': withRateHeader } } },
      '/bad-body': { get: { responses: { '200': withRateHeader } } },
    },
    components: { headers: { Trace: { required: true, schema: { type: 'string' } } } },
  });

let upstream: FastifyInstance;
let app: FastifyInstance;
let workspace: string;
let base: string;
beforeAll(async () => {
  // The real backend: right on /good, drops a required header on /no-header, breaks the schema on /bad-body.
  upstream = Fastify();
  upstream.get('/good', async (_request, reply) =>
    reply.headers({ 'x-rate-limit': '10', 'x-trace': 't' }).send({ id: 1 }),
  );
  upstream.get('/no-header', async (_request, reply) => reply.header('x-trace', 't').send({ id: 1 }));
  upstream.get('/bad-body', async (_request, reply) =>
    reply.headers({ 'x-rate-limit': '10', 'x-trace': 't' }).send({ id: 'one' }),
  );
  const url = await upstream.listen({ host: '127.0.0.1', port: 0 });
  workspace = makeWorkspace({
    'specs/relayed.json': spec(url, false, 'relayed'),
    'specs/blocked.json': spec(url, true, 'blocked'),
  });
  app = await startServer(workspace);
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
  removeWorkspace(workspace);
});

async function get(path: string) {
  const response = await fetch(`${base}/api/adaptive${path}`);
  const violations = response.headers.get('x-adaptive-violations');
  const body = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body, violations: violations && (JSON.parse(violations) as unknown) };
}

describe('the validating proxy', () => {
  it('reports a required response header the upstream drops, and relays the answer', async () => {
    expect(await get('/relayed/no-header')).toEqual({
      status: 200,
      body: { id: 1 },
      violations: [{ in: 'response', path: 'header.x-rate-limit', rule: 'is required by the spec and missing' }],
    });
    expect(await get('/relayed/good')).toEqual({ status: 200, body: { id: 1 }, violations: null });
  });

  it('answers a violation 502 {detail, code, violations} when the spec blocks them', async () => {
    const dropped = await get('/blocked/no-header');
    expect(dropped.status).toBe(502);
    expect(dropped.body).toEqual({
      detail: expect.stringContaining('GET /api/adaptive/blocked/no-header'),
      code: 'UPSTREAM_CONTRACT_VIOLATED',
      violations: [{ in: 'response', path: 'header.x-rate-limit', rule: 'is required by the spec and missing' }],
    });
    const invalid = await get('/blocked/bad-body');
    expect(invalid.status).toBe(502);
    expect(invalid.body.code).toBe('UPSTREAM_CONTRACT_VIOLATED');
    expect(invalid.body.violations).toEqual([expect.objectContaining({ in: 'response', path: 'body.id' })]);
    // A conforming answer still goes through, and the same upstream fault is only relayed by the other spec.
    expect(await get('/blocked/good')).toEqual({ status: 200, body: { id: 1 }, violations: null });
    expect((await get('/relayed/bad-body')).status).toBe(200);
  });
});
