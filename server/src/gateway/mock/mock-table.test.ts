import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer, writeFile } from '../../test-support/workspace.js';
import type { RefreshResult } from '../../contract/index.js';
import { parseMockTable } from './mock-table.js';

const json = (extra: Record<string, unknown>) => ({ description: 'ok', content: { 'application/json': extra } });
const spec = {
  openapi: '3.0.3',
  info: { title: 'orders', version: '1' },
  servers: [{ url: '/api/adaptive/orders' }],
  paths: {
    '/orders': {
      get: {
        parameters: [
          { name: 'status', in: 'query', schema: { type: 'string' } },
          { name: 'flagged', in: 'query', schema: { type: 'boolean' } },
        ],
        responses: {
          '200': json({
            examples: { all: { value: ['a', 'b'] }, open: { value: ['open'] }, closed: { value: ['closed'] } },
          }),
          '404': json({ example: { detail: 'none' } }),
        },
      },
      post: {
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
        responses: {
          '201': json({ examples: { made: { value: { id: 1 } }, rush: { value: { id: 2, rush: true } } } }),
        },
      },
    },
    '/orders/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': json({ example: { id: 'any' } }), '404': json({ example: { detail: 'gone' } }) },
      },
    },
    '/plain': { get: { responses: { '200': json({ example: 'plain' }) } } },
  },
};

const table = `# the orders mock table
routes:
  GET /orders:
    example: all
    rules:
      - {in: query, key: status, equals: open, example: open}
      - {in: query, key: status, equals: open, example: closed}   # overlaps the first: never wins
      - {in: header, key: X-Tenant, equals: acme, response: 404}
      - {in: query, key: status, example: closed}
      - {in: query, key: flagged, equals: true, response: 404}   # YAML's boolean against the query's text
  get /orders/{id}:
    status: 203
    rules:
      - {in: path, key: id, equals: "7", response: 404, status: 410}
      - {in: path, key: id, equals: 9, response: 404}   # YAML's number against the path's text
  POST /orders:
    delay: 1
    rules:
      - {in: body, key: /priority/rush, equals: true, example: rush}
      - {in: body, key: $.customer.tier, equals: gold, example: rush}
      - {in: body, key: "$.items[?@.qty > 10].sku", equals: bulk, example: rush}
`;

let app: FastifyInstance;
let workspace: string;
let base: string;
beforeAll(async () => {
  workspace = makeWorkspace({ 'specs/orders.json': JSON.stringify(spec), 'specs/orders.mock.yaml': table });
  app = await startServer(workspace);
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
});

async function call(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: unknown; rule: string | null }> {
  const response = await fetch(`${base}/api/adaptive/orders${path}`, init);
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    rule: response.headers.get('x-adaptive-mock-rule'),
  };
}

const refresh = async (): Promise<RefreshResult> =>
  (await fetch(`${base}/api/adaptive/actuator/refresh`, { method: 'POST' })).json() as Promise<RefreshResult>;

describe('mock table', () => {
  it("answers the route's own setting when no rule matches", async () => {
    expect(await call('/orders')).toEqual({ status: 200, body: ['a', 'b'], rule: 'route' });
  });

  it('takes the first matching rule when rules overlap', async () => {
    expect(await call('/orders?status=open')).toEqual({ status: 200, body: ['open'], rule: 'rule 1' });
    // Rule 4 has no value: any status that rules 1 and 2 do not take.
    expect(await call('/orders?status=late')).toEqual({ status: 200, body: ['closed'], rule: 'rule 4' });
  });

  it('matches a header (names are case-insensitive) and a path parameter, with a status override', async () => {
    expect(await call('/orders', { headers: { 'x-tenant': 'acme' } })).toEqual({
      status: 404,
      body: { detail: 'none' },
      rule: 'rule 3',
    });
    expect(await call('/orders/7')).toEqual({ status: 410, body: { detail: 'gone' }, rule: 'rule 1' });
    expect(await call('/orders/8')).toEqual({ status: 203, body: { id: 'any' }, rule: 'route' });
  });

  it('matches an unquoted number or boolean of the table against the text of a path or query value', async () => {
    expect(await call('/orders/9')).toEqual({ status: 404, body: { detail: 'gone' }, rule: 'rule 2' });
    expect(await call('/orders?flagged=true')).toEqual({ status: 404, body: { detail: 'none' }, rule: 'rule 5' });
    expect(await call('/orders?flagged=false')).toEqual({ status: 200, body: ['a', 'b'], rule: 'route' });
  });

  it('matches a body value by JSON pointer', async () => {
    const post = (body: unknown) =>
      call('/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(await post({ priority: { rush: true } })).toMatchObject({ status: 201, rule: 'rule 1' });
    expect((await post({ priority: { rush: true } })).body).toMatchObject({ id: 2, rush: true });
    expect(await post({ priority: { rush: false } })).toMatchObject({ status: 201, body: { id: 1 }, rule: 'route' });
  });

  it('matches a body value by JSONPath, one of several nodes matching', async () => {
    const post = (body: unknown) =>
      call('/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(await post({ customer: { tier: 'gold' } })).toMatchObject({ body: { id: 2, rush: true }, rule: 'rule 2' });
    expect(await post({ customer: { tier: 'silver' } })).toMatchObject({ body: { id: 1 }, rule: 'route' });
    const items = [
      { sku: 'few', qty: 1 },
      { sku: 'bulk', qty: 50 },
      { sku: 'other', qty: 20 },
    ];
    expect(await post({ items })).toMatchObject({ body: { id: 2, rush: true }, rule: 'rule 3' });
    expect(await post({ items: items.slice(0, 1) })).toMatchObject({ body: { id: 1 }, rule: 'route' });
  });

  it("lets the request's Prefer win over the rules", async () => {
    expect(await call('/orders?status=open', { headers: { prefer: 'example=closed' } })).toEqual({
      status: 200,
      body: ['closed'],
      rule: 'prefer',
    });
  });

  it('leaves a route without a row alone (no header, fast path)', async () => {
    expect(await call('/plain')).toEqual({ status: 200, body: 'plain', rule: null });
  });

  it('reports a broken table with its position, keeps serving the spec, and reloads a fixed one', async () => {
    writeFile(workspace, 'specs/orders.mock.yaml', table.replace('equals: open, example: open', 'equal: open'));
    const broken = await refresh();
    expect(broken.specs).toEqual(['orders.json']);
    expect(broken.skipped).toEqual([]);
    expect(broken.errors).toEqual([
      {
        file: 'orders.mock.yaml',
        message: expect.stringMatching(/^mock table: routes\.GET \/orders\.rules\.0 /),
        line: 6,
        column: 9,
      },
    ]);
    // The spec serves without the table.
    expect(await call('/orders?status=open')).toEqual({ status: 200, body: ['a', 'b'], rule: null });
    writeFile(workspace, 'specs/orders.mock.yaml', table.replace('example: all', 'example: closed'));
    const fixed = await refresh();
    expect(fixed.errors).toEqual([]);
    expect(await call('/orders')).toEqual({ status: 200, body: ['closed'], rule: 'route' });
    expect(await call('/orders?status=open')).toMatchObject({ body: ['open'], rule: 'rule 1' });
    writeFile(workspace, 'specs/orders.mock.yaml', table);
    await refresh();
  });
});

describe('parseMockTable', () => {
  it('gives the position of a YAML fault and of a value out of range', () => {
    expect(parseMockTable('routes: [oops')).toMatchObject({
      fault: { message: expect.stringMatching(/^invalid YAML/) },
    });
    expect(parseMockTable('routes:\n  GET /a:\n    errorRate: 2\n')).toEqual({
      fault: { message: 'routes.GET /a.errorRate must be <= 1', line: 3, column: 16 },
    });
    expect(parseMockTable('routes:\n  FETCH /a: {}\n')).toMatchObject({ fault: { line: 2 } });
  });

  it('takes a JSONPath or a JSON pointer as a body key, and gives the position of an invalid JSONPath', () => {
    const rules = (key: string) => `routes:\n  POST /a/{id}:\n    rules:\n      - in: body\n        key: "${key}"\n`;
    expect(parseMockTable(rules('$.customer.tier'))).toHaveProperty('table');
    expect(parseMockTable(rules('/customer/tier'))).toHaveProperty('table');
    expect(parseMockTable(rules(''))).toHaveProperty('table');
    expect(parseMockTable(rules('$.items['))).toEqual({
      fault: {
        message: expect.stringMatching(
          /^routes\.POST \/a\/\{id\}\.rules\.0\.key is not a valid JSONPath: .*'\$\.items\['/,
        ),
        line: 5,
        column: 14,
      },
    });
    // Neither a pointer nor a JSONPath.
    expect(parseMockTable(rules('customer.tier'))).toMatchObject({ fault: { line: 5 } });
  });
});
