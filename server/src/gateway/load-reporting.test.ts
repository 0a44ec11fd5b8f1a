import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, serverForTests, writeFile } from '../test-support/workspace.js';
import { workspaceDiagnostics } from '../workbench/diagnostics.js';

/** A spec whose response, request body and parameter each use a component by `$ref`. */
const orders = `openapi: 3.0.3
info: {title: Orders, version: '1'}
paths:
  /orders/{orderId}:
    parameters:
      - $ref: '#/components/parameters/OrderId'
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Order'
    put:
      requestBody:
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Order'
      responses:
        '204': {description: stored}
components:
  parameters:
    OrderId: {name: orderId, in: path, required: true, schema: {type: integer}}
  schemas:
    Order:
      type: object
      properties: {id: {type: integer, example: 7}}
`;

const other = `openapi: 3.0.3
info: {title: Other, version: '1'}
paths:
  /ping:
    get:
      responses: {'200': {description: ok, content: {application/json: {example: {pong: true}}}}}
  /blob:
    get:
      responses: {'200': {description: ok, content: {application/json: {}}}}
`;

const server = serverForTests(() =>
  makeWorkspace({
    'specs/orders.openapi.yaml': orders,
    'specs/other.openapi.yaml': other,
    'specs/notes.txt': 'not a spec',
    'handlers/orders.ts': 'export const x = 1;\n',
    'handlers/money.ts': 'export const cents = (n: number) => Math.round(n * 100);\n',
    'handlers/lib/format.ts': 'export const label = (s: string) => `#${s}`;\n',
    'handlers/tsconfig.json': '{}',
    'handlers/shop_handler.ts': `import { Router } from 'adaptive-workbench/handler';
import { cents } from './money';
import { label } from './lib/format';
export const router = new Router();
router.get('/price', () => ({ cents: cents(1.5), label: label('a') }));
`,
  }),
);

const refresh = async () =>
  (await server.app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json() as {
    status: string;
    specs: string[];
    errors: Array<{ file: string; message: string; line?: number; column?: number }>;
    skipped: Array<{ file: string; reason: string }>;
  };
const get = (url: string) => server.app.inject({ method: 'GET', url });
const startingWith = (text: string) =>
  expect.stringMatching(new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));

describe('a broken $ref is a load error; the last good version keeps serving', () => {
  it.each([
    {
      place: 'a response schema',
      broken: orders.replace(
        "              schema:\n                $ref: '#/components/schemas/Order'\n    put:",
        "              schema:\n                $ref: '#/components/schemas/Ordr'\n    put:",
      ),
      line: 14,
      column: 17,
      message:
        'GET /orders/{orderId} responses.200.content.application/json.schema: ' +
        '$ref "#/components/schemas/Ordr" does not resolve: there is no "Ordr" in #/components/schemas',
    },
    {
      place: 'a request body schema',
      broken: orders.replace(
        "            schema:\n              $ref: '#/components/schemas/Order'",
        "            schema:\n              $ref: '#/components/schemas/Oder'",
      ),
      line: 20,
      column: 15,
      message: 'PUT /orders/{orderId} requestBody.content.application/json.schema: $ref "#/components/schemas/Oder"',
    },
    {
      place: 'a parameter',
      broken: orders.replace("$ref: '#/components/parameters/OrderId'", "$ref: '#/components/parameters/Id'"),
      line: 6,
      column: 9,
      message: 'path /orders/{orderId} parameters.0: $ref "#/components/parameters/Id" does not resolve',
    },
  ])('in $place: refresh reports file, line and column; other specs are unaffected', async (c) => {
    expect(c.broken).not.toBe(orders);
    writeFile(server.workspace, 'specs/orders.openapi.yaml', c.broken);
    const result = await refresh();
    expect(result.status).toBe('partial');
    expect(result.errors).toEqual([
      { file: 'orders.openapi.yaml', message: startingWith(c.message), line: c.line, column: c.column },
    ]);
    expect(result.specs).toEqual(['orders.openapi.yaml', 'other.openapi.yaml']);
    const served = await get('/api/adaptive/orders/orders/3');
    expect({ status: served.statusCode, body: served.json() }).toEqual({ status: 200, body: { id: 7 } });
    expect((await get('/api/adaptive/other/ping')).json()).toEqual({ pong: true });
    expect(workspaceDiagnostics(server.app.gateway)).toContainEqual({
      path: 'specs/orders.openapi.yaml',
      severity: 'error',
      message: startingWith(c.message),
      line: c.line,
      column: c.column,
      lastGoodLoadedAt: expect.any(Number),
    });
    writeFile(server.workspace, 'specs/orders.openapi.yaml', orders);
    expect((await refresh()).errors).toEqual([]);
  });
});

/** The 1-based line of `text` that contains `part`. */
const lineOf = (text: string, part: string) => text.split('\n').findIndex((line) => line.includes(part)) + 1;

describe('a saved spec that breaks the OpenAPI schema keeps its last good version serving', () => {
  const broken = other.replace(
    '  /ping:\n    get:\n',
    '  /ping:\n    get:\n      parameters:\n        - name: limit\n          schema:\n            type: strnig\n',
  );

  it('lists every schema error at its line, refuses the version, and the old routes still answer', async () => {
    expect(broken).not.toBe(other);
    const savedAt = Date.now();
    writeFile(server.workspace, 'specs/other.openapi.yaml', broken);
    const result = await refresh();
    const diagnostics = workspaceDiagnostics(server.app.gateway).filter(
      (d) => d.path === 'specs/other.openapi.yaml' && d.severity === 'error',
    );
    // The refresh sums them up; the problems list each one (the validator may add one for another alternative).
    expect(result.errors).toEqual([
      { file: 'other.openapi.yaml', message: startingWith(`${diagnostics.length} OpenAPI schema errors`) },
    ]);
    const listed = diagnostics.map(({ line, message }) => ({ line, message }));
    expect(listed).toContainEqual({
      line: lineOf(broken, 'name: limit'),
      message: "schema: GET /ping parameters.0: must have required property 'in'",
    });
    expect(listed).toContainEqual({
      line: lineOf(broken, 'strnig'),
      message: 'schema: GET /ping parameters.0.schema.type: must be equal to one of the allowed values',
    });
    for (const { line } of listed) expect(line).toBeGreaterThan(0);
    for (const diagnostic of diagnostics) expect(diagnostic.lastGoodLoadedAt).toBeLessThan(savedAt);
    // The version before the save serves: /ping takes no parameter and answers as before.
    expect((await get('/api/adaptive/other/ping?limit=x')).json()).toEqual({ pong: true });

    // Another fault replaces the findings; the fix clears everything.
    writeFile(server.workspace, 'specs/other.openapi.yaml', `${broken}  /bad: [unclosed\n`);
    await refresh();
    const yamlError = workspaceDiagnostics(server.app.gateway).filter(
      (d) => d.path === 'specs/other.openapi.yaml' && d.severity === 'error',
    );
    expect(yamlError).toHaveLength(1);
    expect(yamlError[0].message).not.toMatch(/^schema:/);
    writeFile(server.workspace, 'specs/other.openapi.yaml', other);
    expect((await refresh()).errors).toEqual([]);
    expect(workspaceDiagnostics(server.app.gateway).filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('still loads a spec that broke a rule from its first version (as published specs often do)', async () => {
    writeFile(server.workspace, 'specs/first.openapi.yaml', broken.replace('title: Other', 'title: First'));
    const result = await refresh();
    expect(result.errors).toEqual([]);
    expect(result.specs).toContain('first.openapi.yaml');
    const findings = workspaceDiagnostics(server.app.gateway).filter((d) => d.path === 'specs/first.openapi.yaml');
    expect(findings.filter((d) => d.message.startsWith('schema:')).length).toBeGreaterThanOrEqual(2);
    expect(findings.every((d) => d.severity === 'warning')).toBe(true);
    fs.unlinkSync(path.join(server.workspace, 'specs/first.openapi.yaml'));
    await refresh();
  });
});

describe('declared content is never an empty 200', () => {
  it('a response whose content has neither example nor schema answers 500 {detail, code}', async () => {
    const blob = await get('/api/adaptive/other/blob');
    expect(blob.statusCode).toBe(500);
    expect(blob.json()).toEqual({
      code: 'EXAMPLE_UNAVAILABLE',
      detail: expect.stringContaining('GET /blob 200 application/json'),
    });
    expect((await get('/api/adaptive/other/ping')).statusCode).toBe(200);
  });
});

describe('files that are not loaded', () => {
  it('lists a handler not named *_handler.ts and a spec file of another extension, not helper modules', async () => {
    const result = await refresh();
    expect(result.skipped).toEqual([
      { file: 'notes.txt', reason: expect.stringContaining('spec files must end in .yaml, .yml or .json') },
      { file: 'orders.ts', reason: expect.stringContaining('handler files must be named <name>_handler.ts') },
    ]);
    expect((await get('/api/adaptive/shop/price')).json()).toEqual({ cents: 150, label: '#a' });
    const diagnostics = workspaceDiagnostics(server.app.gateway);
    expect(diagnostics).toContainEqual({
      path: 'handlers/orders.ts',
      severity: 'warning',
      message: expect.stringMatching(/^not loaded: handler files must be named <name>_handler\.ts/),
    });
    expect(diagnostics).toContainEqual(expect.objectContaining({ path: 'specs/notes.txt', severity: 'warning' }));
    const flagged = diagnostics.map((d) => d.path);
    for (const helper of ['handlers/money.ts', 'handlers/lib/format.ts', 'handlers/tsconfig.json'])
      expect(flagged).not.toContain(helper);
  });

  it('a file renamed to the handler rule loads and leaves the list', async () => {
    const dir = path.join(server.workspace, 'handlers');
    fs.writeFileSync(
      path.join(dir, 'orders.ts'),
      "import { Router } from 'adaptive-workbench/handler';\nexport const router = new Router();\n" +
        "router.get('/n', () => ({ n: 1 }));\n",
    );
    fs.renameSync(path.join(dir, 'orders.ts'), path.join(dir, 'orders_handler.ts'));
    const result = await refresh();
    expect(result.skipped.map((s) => s.file)).toEqual(['notes.txt']);
    expect((await get('/api/adaptive/orders/n')).json()).toEqual({ n: 1 });
  });
});

describe('schema warnings', () => {
  it('carry file, line and column and a readable place, each one listed', async () => {
    writeFile(
      server.workspace,
      'specs/loose.openapi.yaml',
      `openapi: 3.0.3
info: {title: Loose, version: '1'}
paths:
  /orders/{orderId}:
    get:
      description: 5
  /a:
    post:
      responses:
        '200': {}
`,
    );
    await refresh();
    const warnings = workspaceDiagnostics(server.app.gateway).filter((d) => d.path === 'specs/loose.openapi.yaml');
    expect(warnings).toEqual([
      {
        path: 'specs/loose.openapi.yaml',
        severity: 'warning',
        message: "schema: GET /orders/{orderId}: must have required property 'responses'",
        line: 5,
        column: 5,
      },
      {
        path: 'specs/loose.openapi.yaml',
        severity: 'warning',
        message: 'schema: GET /orders/{orderId} description: must be string',
        line: 6,
        column: 7,
      },
      {
        path: 'specs/loose.openapi.yaml',
        severity: 'warning',
        message: "schema: POST /a responses.200: must have required property 'description'",
        line: 10,
        column: 9,
      },
      {
        path: 'specs/loose.openapi.yaml',
        severity: 'warning',
        message: 'GET /orders/{orderId}: declares no responses; the mock answers 501 MOCK_NO_RESPONSES',
      },
    ]);
  });
});
