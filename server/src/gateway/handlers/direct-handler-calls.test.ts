import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';
import { directAnswerer } from '../direct-answers.js';

const item = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' } },
};
const ok = { description: 'ok', content: { 'application/json': { schema: item } } };
const get = { get: { responses: { 200: ok } } };

/** The spec the handler overrides (its answers are checked against it); `/extra` is the handler's alone. */
const spec = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'shop', version: '1' },
  paths: {
    '/items': get,
    '/items/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: ok },
      },
    },
    '/wrong': get,
    '/required-header': {
      get: {
        responses: { 200: { ...ok, headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer' } } } } },
      },
    },
    '/thrown': get,
    '/failing': get,
    '/huge': get,
    '/stuck': get,
    '/never': get,
  },
});

const handler = `import { Router, HTTPException, t } from 'adaptive-workbench/handler';
export const router = new Router();
let calls = 0;
router.get('/items', () => ({ id: ++calls }));
router.get('/items/{id}', { params: t.Object({ id: t.Integer() }) }, ({ params }) => ({ id: params.id }));
router.get('/wrong', () => ({ id: 'two' }));
router.get('/required-header', () => ({ id: 3 }));
let failures = 0;
router.get('/failures', () => ({ failures }));
router.get('/thrown', () => { failures++; throw new HTTPException(409, 'conflict'); });
router.get('/failing', () => { failures++; throw new Error('boom'); });
router.get('/huge', () => ({ id: ++failures, text: 'x'.repeat(4096) }));
router.get('/stuck', () => { while (true) {} });
router.get('/never', () => { failures++; return new Promise(() => {}); });
router.get('/extra', () => ({ anything: 'goes' }));
router.get('/nothing', () => undefined);
router.get('/headers', ({ headers }) => ({ tier: headers['x-tier'] ?? null }));
`;

const base = '/api/adaptive/shop';
/** Long enough for a restart on a loaded machine: a call that waits for one gets its answer within its deadline. */
const timeoutMs = 4000;
let app: FastifyInstance;
let workspace: string;
/** A server that calls handler routes directly, counting what it hands to Fastify and what it leaves to it. */
let direct: http.Server;
let directOrigin: string;
const handedOver: string[] = [];
const leftAlone: string[] = [];
const observed: Array<{ route: string; status: number; mode: string }> = [];

beforeAll(async () => {
  workspace = makeWorkspace({ 'specs/shop.openapi.json': spec, 'handlers/shop_handler.ts': handler });
  app = await startServer(workspace, { HANDLER_TIMEOUT_MS: String(timeoutMs), HANDLER_RESPONSE_LIMIT: '1024' });
  const answer = directAnswerer(
    app.gateway,
    {
      hostAllowed: (host) => host.startsWith('127.0.0.1'),
      corsOrigins: '*',
      histogram: { recorder: (_method, route, status, mode) => () => void observed.push({ route, status, mode }) },
    },
    (request, response) => {
      handedOver.push(request.url!);
      app.routing(request, response);
    },
  );
  direct = http.createServer((request, response) => {
    if (answer(request, response)) return;
    leftAlone.push(request.url!);
    app.routing(request, response);
  });
  await new Promise<void>((resolve) => direct.listen(0, '127.0.0.1', resolve));
  directOrigin = `http://127.0.0.1:${(direct.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => direct.close(resolve));
  await app.close();
  removeWorkspace(workspace);
});

/** A GET to the direct server, by Node's client (fetch adds headers of its own). */
function request(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get(directOrigin + base + path, { headers }, (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
      })
      .on('error', reject);
  });
}

const withoutDate = ({ date: _date, ...headers }: http.IncomingHttpHeaders) => headers;

/** Calls `path` directly and through Fastify alone; expects the same status, bytes and headers; returns the first. */
async function sameAsFastify(path: string, headers: Record<string, string> = {}) {
  const answered = await request(path, headers);
  const fastify = await app.inject({ url: base + path, headers: { host: '127.0.0.1', ...headers } });
  expect(answered.status).toBe(fastify.statusCode);
  expect(answered.body).toBe(fastify.body);
  expect(withoutDate(answered.headers)).toEqual({
    ...withoutDate(fastify.headers as http.IncomingHttpHeaders),
    connection: 'keep-alive',
    'keep-alive': 'timeout=5',
  });
  return answered;
}

/** What one GET of `path` did: answered directly, handed over after the call, or left to Fastify. */
async function pathOf(path: string, headers: Record<string, string> = {}) {
  const [over, alone] = [handedOver.length, leftAlone.length];
  await request(path, headers);
  if (leftAlone.length > alone) return 'left to Fastify';
  return handedOver.length > over ? 'handed over' : 'direct';
}

describe('handler routes called before Fastify', () => {
  it('writes a plain answer directly, with the bytes and headers of Fastify’s path', async () => {
    expect(await pathOf('/items')).toBe('direct');
    const answered = await request('/items');
    const fastify = await app.inject({ url: `${base}/items`, headers: { host: '127.0.0.1' } });
    // The handler counts its calls: each path called it once.
    expect(JSON.parse(answered.body)).toEqual({ id: JSON.parse(fastify.body).id - 1 });
    expect(withoutDate(answered.headers)).toEqual({
      ...withoutDate(fastify.headers as http.IncomingHttpHeaders),
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
    });
    expect(answered.headers).toMatchObject({ 'x-adaptive-mode': 'handler', 'access-control-allow-origin': '*' });
    expect(observed.at(-1)).toEqual({ route: `${base}/items`, status: 200, mode: 'handler' });
  });

  it('answers routes without a contract, no body, path parameters and headers as Fastify does', async () => {
    for (const path of ['/extra', '/nothing', '/items/7']) {
      expect([path, await pathOf(path)]).toEqual([path, 'direct']);
      await sameAsFastify(path);
    }
    expect(JSON.parse((await sameAsFastify('/headers', { 'x-tier': 'gold' })).body)).toEqual({ tier: 'gold' });
  });

  it('hands an answer that breaks the contract to Fastify, which lists the violations', async () => {
    for (const path of ['/wrong', '/required-header']) {
      expect([path, await pathOf(path)]).toEqual([path, 'handed over']);
      const answered = await sameAsFastify(path);
      expect(answered.headers['x-adaptive-violations']).toBeDefined();
    }
  });

  it('hands every failed call to Fastify, which answers its error body once, without calling again', async () => {
    const cases: Array<[string, number, string]> = [
      ['/thrown', 409, 'HANDLER_HTTP_EXCEPTION'],
      ['/failing', 500, 'INTERNAL'],
      ['/huge', 500, 'HANDLER_RESPONSE_TOO_LARGE'],
      ['/never', 504, 'HANDLER_TIMEOUT'],
    ];
    const failures = async () => (JSON.parse((await request('/failures')).body) as { failures: number }).failures;
    for (const [path, status, code] of cases) {
      const before = await failures();
      expect([path, await pathOf(path)]).toEqual([path, 'handed over']);
      expect([path, await failures()]).toEqual([path, before + 1]);
      const answered = await sameAsFastify(path);
      expect([path, answered.status, JSON.parse(answered.body).code]).toEqual([path, status, code]);
    }
  }, 30_000);

  it('answers a call stuck in a loop 504 at its deadline, and the next waits for the restarted process', async () => {
    const stuck = await request('/stuck');
    expect([stuck.status, JSON.parse(stuck.body).code]).toEqual([504, 'HANDLER_TIMEOUT']);
    // Sent to the blocked process, killed a moment later: run again on the new one.
    const next = await request('/extra');
    expect([next.status, JSON.parse(next.body)]).toEqual([200, { anything: 'goes' }]);
  }, 30_000);

  it('leaves to Fastify a request it must check itself: bad input, another Host, a query, Origin', async () => {
    const bad = await sameAsFastify('/items/abc');
    expect([bad.status, JSON.parse(bad.body).code]).toEqual([400, 'VALIDATION_FAILED']);
    const cases: Array<[string, Record<string, string>]> = [
      ['/items/abc', {}],
      ['/items', { host: 'evil.test' }],
      ['/items?limit=1', {}],
      ['/items', { origin: 'http://app.test' }],
    ];
    for (const [path, headers] of cases)
      expect([path, headers, await pathOf(path, headers)]).toEqual([path, headers, 'left to Fastify']);
    expect((await request('/items', { host: 'evil.test' })).status).toBe(421);
  });
});
