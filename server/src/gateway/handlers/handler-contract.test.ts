import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { buildServer } from '../../main/app.js';
import { makeWorkspace, removeWorkspace } from '../../test-support/workspace.js';

const item = {
  type: 'object',
  required: ['id', 'status'],
  properties: { id: { type: 'integer' }, status: { type: 'string', enum: ['available', 'sold'] } },
};
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = { description: 'ok', ...json({ $ref: '#/components/schemas/Item' }) };
const error = {
  description: 'not found',
  ...json({ type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } }),
};
const get = (responses: Record<string, unknown>) => ({ get: { responses } });

/** The spec the handler overrides: every route declares 200 with an Item, some more. */
const spec = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'shop', version: '1' },
  paths: {
    '/valid': get({ 200: ok, 404: error }),
    '/wrong-type': get({ 200: ok }),
    '/missing-field': get({ 200: ok }),
    '/bad-enum': get({ 200: ok }),
    '/undeclared': get({ 200: ok }),
    '/thrown': get({ 200: ok, 404: error }),
    '/alternating': get({ 200: ok }),
    '/header': get({
      200: { ...ok, headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer' } } } },
    }),
  },
  components: { schemas: { Item: item } },
});

const handler =
  `import { Router, HTTPException } from 'adaptive-workbench/handler';
export const router = new Router();
router.get('/valid', ({ query }) => { if (query.missing) throw new HTTPException(404, 'no such item'); ` +
  `return { id: 1, status: 'available' }; });
router.get('/wrong-type', () => ({ id: 'two', status: 'sold' }));
router.get('/missing-field', () => ({ id: 2 }));
router.get('/bad-enum', () => ({ id: 3, status: 'lost' }));
router.get('/undeclared', { status: 201 }, () => ({ id: 4, status: 'sold' }));
router.get('/thrown', () => { throw new HTTPException(409, 'conflict'); });
router.get('/header', () => ({ id: 5, status: 'sold' }));
let answers = 0;
router.get('/alternating', () => (++answers % 2 === 0 ? { id: 6, status: 'sold' } : { id: 6, status: 'lost' }));
router.get('/extra', () => ({ anything: true }));
`;

interface Served {
  app: FastifyInstance;
  workspace: string;
  log: string[];
}

/** A server on a workspace of the spec and its overriding handler, with `CONTRACT_ENFORCE` as given. */
async function serve(enforce: string | undefined): Promise<Served> {
  const workspace = makeWorkspace({ 'specs/shop.openapi.json': spec, 'handlers/shop_handler.ts': handler });
  const env: Record<string, string> = { HOT_RELOAD: 'false' };
  if (enforce !== undefined) env.CONTRACT_ENFORCE = enforce;
  const log: string[] = [];
  const sink = new Writable({ write: (chunk, _encoding, done) => (log.push(String(chunk)), done()) });
  const app = await buildServer(loadConfig(env, { workspace }), { logger: pino({ level: 'warn' }, sink) });
  await app.ready();
  await app.gateway.start();
  return { app, workspace, log };
}

const violationsOf = (headers: Record<string, unknown>) =>
  JSON.parse(String(headers['x-adaptive-violations'] ?? '[]')) as Array<{ in: string; path: string; rule: string }>;

const servers: Served[] = [];
afterAll(async () => {
  for (const { app, workspace } of servers) {
    await app.close();
    removeWorkspace(workspace);
  }
});

describe('CONTRACT_ENFORCE=report (the default)', () => {
  let served: Served;
  beforeAll(async () => servers.push((served = await serve(undefined))));
  const call = (path: string) => served.app.inject({ url: `/api/adaptive/shop${path}` });

  it('leaves a valid answer and a declared HTTPException untouched', async () => {
    const valid = await call('/valid');
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toEqual({ id: 1, status: 'available' });
    expect(valid.headers['x-adaptive-violations']).toBeUndefined();
    const missing = await call('/valid?missing=1');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-adaptive-violations']).toBeUndefined();
  });

  it('checks each answer, the same text again as a new one', async () => {
    const listed = async (path: string) => violationsOf((await call(path)).headers).map((v) => v.path);
    expect([await listed('/wrong-type'), await listed('/wrong-type')]).toEqual([['body.id'], ['body.id']]);
    const alternating = [];
    for (let i = 0; i < 4; i++) alternating.push(await listed('/alternating'));
    expect(alternating).toEqual([['body.status'], [], ['body.status'], []]);
  });

  it.each([
    ['/wrong-type', 200, [{ in: 'response', path: 'body.id', rule: 'must be integer' }]],
    ['/missing-field', 200, [{ in: 'response', path: 'body.status', rule: 'is required' }]],
    ['/bad-enum', 200, [{ in: 'response', path: 'body.status', rule: expect.stringContaining('allowed values') }]],
    ['/undeclared', 201, [{ in: 'response', path: 'status', rule: 'status 201 is not declared for GET /undeclared' }]],
    ['/thrown', 409, [{ in: 'response', path: 'status', rule: 'status 409 is not declared for GET /thrown' }]],
    ['/header', 200, [{ in: 'response', path: 'header.x-rate-limit', rule: 'is required by the spec and missing' }]],
  ])('relays %s as the handler answered, its violations listed', async (path, status, violations) => {
    const response = await call(path);
    expect(response.statusCode).toBe(status);
    expect(violationsOf(response.headers)).toEqual(violations);
    const line = served.log.map((l) => JSON.parse(l)).find((l) => l.url === `/api/adaptive/shop${path}`);
    expect(line).toMatchObject({ level: 40, handler: 'shop_handler.ts', route: `GET /shop${path}` });
    expect(line.violations).toEqual(violations);
  });

  it('does not check a handler route that overrides nothing', async () => {
    const response = await call('/extra');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-adaptive-violations']).toBeUndefined();
  });
});

describe('CONTRACT_ENFORCE=strict', () => {
  let served: Served;
  beforeAll(async () => servers.push((served = await serve('strict'))));
  const call = (path: string) => served.app.inject({ url: `/api/adaptive/shop${path}` });

  it.each(['/wrong-type', '/missing-field', '/bad-enum', '/undeclared', '/thrown', '/header'])(
    'answers %s 500 CONTRACT_VIOLATION with the violations',
    async (path) => {
      const response = await call(path);
      expect(response.statusCode).toBe(500);
      const body = response.json();
      expect(body).toMatchObject({ code: 'CONTRACT_VIOLATION' });
      expect(body.detail).toContain(`GET /api/adaptive/shop${path}`);
      expect(body.detail).toContain('shop.openapi.json');
      expect(body.violations.length).toBeGreaterThan(0);
      expect(violationsOf(response.headers)).toEqual(body.violations);
    },
  );

  it('still answers a valid request as the handler did', async () => {
    const response = await call('/valid');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 1, status: 'available' });
  });
});

describe('CONTRACT_ENFORCE=off', () => {
  let served: Served;
  beforeAll(async () => servers.push((served = await serve('off'))));

  it('checks nothing', async () => {
    for (const path of ['/wrong-type', '/undeclared', '/header']) {
      const response = await served.app.inject({ url: `/api/adaptive/shop${path}` });
      expect(response.statusCode).toBeLessThan(300);
      expect(response.headers['x-adaptive-violations']).toBeUndefined();
    }
    expect(served.log.join('')).not.toContain('contract violations');
  });
});

describe('CONTRACT_ENFORCE setting', () => {
  it('refuses a value other than off, report or strict, naming them', () => {
    expect(() => loadConfig({ CONTRACT_ENFORCE: 'loud' }, { workspace: '.' })).toThrow(/off, report or strict/);
  });
});
