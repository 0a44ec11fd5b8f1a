import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockTableView, SpecEditProposal } from '../contract/index.js';
import { loadConfig } from '../core/config.js';
import { buildServer } from '../main/app.js';
import { makeWorkspace, removeWorkspace, writeFile } from '../test-support/workspace.js';

const token = 'test-token-0123456789abcdefghij';
const auth = { 'x-workbench-token': token };
const spec = `openapi: 3.0.3
info: {title: Orders, version: '1'}
paths:
  /orders:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              examples: {all: {value: [1, 2]}, open: {value: [1]}}
        '404': {$ref: '#/components/responses/Missing'}
components:
  responses:
    Missing: {description: none, content: {application/json: {examples: {gone: {value: {detail: gone}}}}}}
`;

let workspace: string;
let app: FastifyInstance;
beforeAll(async () => {
  workspace = makeWorkspace({
    'specs/orders.yaml': spec,
    'health.yaml': 'components: {}\n',
    'query/sources.yaml': 'sources: []\n',
  });
  const config = loadConfig(
    { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', WORKBENCH: 'true', HEALTH_CONFIG: 'health.yaml' },
    { workspace },
  );
  const logger = pino({ level: 'info' }, new Writable({ write: (_c, _e, done) => done() }));
  app = await buildServer(config, { logger, workbenchToken: token });
  await app.ready();
  await app.gateway.start();
});
afterAll(async () => {
  await app?.close();
  removeWorkspace(workspace);
});

const view = async () =>
  (await app.inject({ url: '/api/workbench/mock/table?mount=orders', headers: auth })).json<MockTableView>();
const propose = (routes: unknown) =>
  app.inject({ method: 'POST', url: '/api/workbench/mock/table', headers: auth, payload: { mount: 'orders', routes } });

describe('the mock table API', () => {
  it("lists a spec's routes with their responses and examples ($ref responses too)", async () => {
    expect(await view()).toEqual({
      mount: 'orders',
      path: 'specs/orders.mock.yaml',
      routes: [
        {
          key: 'GET /orders',
          responses: [
            { status: '200', examples: ['all', 'open'] },
            { status: '404', examples: ['gone'] },
          ],
        },
      ],
    });
  });

  it('proposes the checked text of a table, which the file API writes and the gateway then answers by', async () => {
    const row = { example: 'all', rules: [{ in: 'query', key: 'state', equals: 'open', example: 'open' }] };
    const response = await propose({ 'GET /orders': row });
    expect(response.statusCode).toBe(200);
    const proposal = response.json<SpecEditProposal>();
    expect(proposal).toMatchObject({ path: 'specs/orders.mock.yaml', original: '' });
    const write = await app.inject({
      method: 'PUT',
      url: '/api/workbench/files/content?path=specs/orders.mock.yaml',
      headers: auth,
      payload: { content: proposal.proposed },
    });
    expect(write.statusCode).toBe(200);
    await app.gateway.reload();
    expect((await view()).routes[0].row).toEqual(row);
    const answer = await app.inject({ url: '/api/adaptive/orders/orders?state=open' });
    expect(answer.json()).toEqual([1]);
    expect(answer.headers['x-adaptive-mock-rule']).toBe('rule 1');
  });

  it('refuses rows that name no operation or break the table schema, and reports a broken file', async () => {
    const unknown = await propose({ 'GET /nowhere': {} });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'BAD_REQUEST', detail: expect.stringContaining('GET /nowhere') });
    const bad = await propose({ 'GET /orders': { errorRate: 5 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/errorRate must be <= 1/);
    const path = await propose({ 'GET /orders': { rules: [{ in: 'body', key: '$.a[', equals: 1 }] } });
    expect(path.statusCode).toBe(400);
    expect(path.json().detail).toMatch(/rules\.0\.key is not a valid JSONPath: /);
    writeFile(workspace, 'specs/orders.mock.yaml', 'routes:\n  GET /orders:\n    delay: soon\n');
    expect((await view()).problem).toMatch(/^line 3: routes\.GET \/orders\.delay /);
  });
});
