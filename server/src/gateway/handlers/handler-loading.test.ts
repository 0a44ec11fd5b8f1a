import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer, writeFile } from '../../test-support/workspace.js';

const header = `import { Router, HTTPException, t } from 'adaptive-workbench/handler';\n`;
const good = (value: string) =>
  `${header}export const router = new Router();\nrouter.get('/v', () => ({ v: ${value} }));\n`;

const refresh = async (server: FastifyInstance) => {
  const response = await server.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' });
  expect(response.statusCode).toBe(200);
  return response.json();
};

describe('handlers that do not load', () => {
  let workspace: string;
  let app: FastifyInstance;
  const broken: Record<string, string> = {
    'handlers/syntax_handler.ts': `${header}export const router = new Router();\nrouter.get('/a', () => ({ a: 1 ));\n`,
    'handlers/missing_import_handler.ts':
      `${header}import { helper } from './nowhere.js';\nexport const router ` +
      `= new Router();\nrouter.get('/a', () => helper);\n`,
    'handlers/missing_package_handler.ts':
      `${header}import pad from 'no-such-package-anywhere';\nexport const ` +
      `router = new Router();\nrouter.get('/a', () => pad);\n`,
    'handlers/missing_export_handler.ts':
      `${header}import { nothere } from './lib/helper.js';\nexport const ` +
      `router = new Router();\nrouter.get('/a', () => nothere);\n`,
    'handlers/throws_handler.ts':
      `${header}export const router = new Router();\n\nthrow new Error('cannot ` + `connect to the database');\n`,
    'handlers/helper_throws_handler.ts':
      `${header}import { boom } from './lib/boom.js';\nexport const router = ` +
      `new Router();\nrouter.get('/a', () => boom);\n`,
    'handlers/helper_syntax_handler.ts':
      `${header}import { bad } from './lib/bad-syntax.js';\nexport const ` +
      `router = new Router();\nrouter.get('/a', () => bad);\n`,
    'handlers/no_router_handler.ts': `${header}export const routes = new Router();\n`,
    'handlers/fake_router_handler.ts': `export const router = { routes: [], get() {} };\n`,
    'handlers/bad_route_handler.ts':
      `${header}export const router = new Router();\nrouter.get('/ok', () => ` + `1);\nrouter.get('books', () => 2);\n`,
    'handlers/bad_schema_handler.ts':
      `${header}export const router = new Router();\nrouter.get('/d', { query: ` +
      `t.Object({ when: t.Date() }) }, () => 1);\n`,
    'handlers/hangs_handler.ts': `${header}export const router = new Router();\nawait new Promise(() => {});\n`,
    'handlers/actuator_handler.ts': good('1'),
    'handlers/lib/helper.ts': `export const other = 1;\n`,
    'handlers/lib/boom.ts': `export const boom = 1;\nthrow new TypeError('helper failed');\n`,
    'handlers/lib/bad-syntax.ts': `export const bad = ;\n`,
  };

  beforeAll(async () => {
    workspace = makeWorkspace({ ...broken, 'handlers/fine_handler.ts': good('"fine"') });
    // Generous: the bound also applies to loading, which is slow on a loaded CI machine.
    app = await startServer(workspace, { HANDLER_TIMEOUT_MS: '3000', HANDLER_LOAD_TIMEOUT_MS: '3000' });
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  it('loads the good handler and serves it; the gateway is otherwise unaffected', async () => {
    expect(app.gateway.files('handler')).toEqual(['fine_handler.ts']);
    expect((await app.inject({ method: 'GET', url: '/api/adaptive/fine/v' })).json()).toEqual({ v: 'fine' });
    expect((await app.inject({ method: 'GET', url: '/api/adaptive/actuator/health/readiness' })).statusCode).toBe(200);
  });

  it('reports every broken handler in refresh, with the position when the fault is in the handler file', async () => {
    const result = await refresh(app);
    expect(result.status).toBe('partial');
    expect(result.handlers).toEqual(['fine_handler.ts']);
    const byFile = Object.fromEntries(result.errors.map((e: { file: string }) => [e.file, e]));
    expect(Object.keys(byFile).sort()).toEqual(
      Object.keys(broken)
        .filter((f) => f.endsWith('_handler.ts'))
        .map((f) => path.basename(f))
        .sort(),
    );

    expect(byFile['syntax_handler.ts']).toEqual({
      file: 'syntax_handler.ts',
      message: expect.stringMatching(/^Expected "}" but found "\)"/),
      line: 3,
      column: 32,
    });
    expect(byFile['missing_import_handler.ts']).toEqual({
      file: 'missing_import_handler.ts',
      message: 'Could not resolve "./nowhere.js"',
      line: 2,
      column: 24,
    });
    expect(byFile['missing_package_handler.ts']).toMatchObject({
      message: expect.stringContaining('Could not resolve "no-such-package-anywhere"'),
      line: 2,
    });
    expect(byFile['missing_export_handler.ts']).toMatchObject({
      message: expect.stringContaining('No matching export in "lib/helper.ts" for import "nothere"'),
      line: 2,
      column: 10,
    });
    expect(byFile['throws_handler.ts']).toEqual({
      file: 'throws_handler.ts',
      message: 'threw while loading: Error: cannot connect to the database',
      line: 4,
      column: 7,
    });
    expect(byFile['helper_throws_handler.ts']).toEqual({
      file: 'helper_throws_handler.ts',
      message: 'threw while loading: TypeError: helper failed (at lib/boom.ts:2:7)',
    });
    expect(byFile['helper_syntax_handler.ts']).toEqual({
      file: 'helper_syntax_handler.ts',
      message: 'Unexpected ";" (in lib/bad-syntax.ts:1:20)',
    });
    expect(byFile['no_router_handler.ts'].message).toMatch(
      /^does not export a router: add `export const router = new Router\(\);`/,
    );
    expect(byFile['fake_router_handler.ts'].message).toBe(
      "its export `router` is not a Router from 'adaptive-workbench/handler'",
    );
    expect(byFile['bad_route_handler.ts']).toEqual({
      file: 'bad_route_handler.ts',
      message: 'threw while loading: TypeError: GET route path must be a string starting with "/", got "books"',
      line: 4,
      column: 8,
    });
    expect(byFile['bad_schema_handler.ts']).toEqual({
      file: 'bad_schema_handler.ts',
      message: 'GET /d: schema.query cannot be used for validation: type must be JSONType or JSONType[]: Date',
    });
    expect(byFile['hangs_handler.ts']).toEqual({
      file: 'hangs_handler.ts',
      message:
        'did not finish loading within 3000 ms (HANDLER_LOAD_TIMEOUT_MS): a loop or a promise that never ' +
        'settles at its top level?',
    });
    expect(byFile['actuator_handler.ts'].message).toMatch(/the mount "actuator" is not usable/);
  }, 120_000);

  it('answers 404 for the routes of handlers that never loaded', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/adaptive/bad-route/ok' })).statusCode).toBe(404);
  });
});

describe('reload', () => {
  let workspace: string;
  let app: FastifyInstance;
  const write = (name: string, content: string) => writeFile(workspace, name, content);
  const value = async (url: string) => (await app.inject({ method: 'GET', url })).json();

  beforeAll(async () => {
    workspace = makeWorkspace();
    app = await startServer(workspace);
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });
  afterEach(async () => {
    for (const name of fs.readdirSync(path.join(workspace, 'handlers')))
      fs.rmSync(path.join(workspace, 'handlers', name), { recursive: true });
    await refresh(app);
  });

  it('picks up a changed handler', async () => {
    write('handlers/items_handler.ts', good('1'));
    await refresh(app);
    expect(await value('/api/adaptive/items/v')).toEqual({ v: 1 });
    write('handlers/items_handler.ts', good('2'));
    expect(await refresh(app)).toMatchObject({ status: 'success', handlers: ['items_handler.ts'], errors: [] });
    expect(await value('/api/adaptive/items/v')).toEqual({ v: 2 });
  });

  it('picks up a changed helper module of an unchanged handler', async () => {
    write('handlers/lib/greeting.ts', `export const greeting = (name: string) => 'hello ' + name;\n`);
    write(
      'handlers/greet_handler.ts',
      `${header}import { greeting } from './lib/greeting.js';\nexport const router = new ` +
        `Router();\nrouter.get('/{name}', ({ params }) => ({ text: greeting(params.name) }));\n`,
    );
    await refresh(app);
    expect(await value('/api/adaptive/greet/ada')).toEqual({ text: 'hello ada' });
    write('handlers/lib/greeting.ts', `export const greeting = (name: string) => 'bonjour ' + name;\n`);
    await refresh(app);
    expect(await value('/api/adaptive/greet/ada')).toEqual({ text: 'bonjour ada' });
  });

  it('keeps an unchanged module across a refresh and evaluates a fresh instance of a changed one', async () => {
    const counter = (start: number) =>
      `${header}export const router = new Router();\nlet n = ${start};\nrouter.post('/', () => ({ n: ++n }));\n`;
    write('handlers/counter_handler.ts', counter(0));
    await refresh(app);
    const hit = async () => (await app.inject({ method: 'POST', url: '/api/adaptive/counter' })).json().n;
    expect([await hit(), await hit()]).toEqual([1, 2]);
    await refresh(app);
    expect(await hit()).toBe(3);
    write('handlers/counter_handler.ts', counter(10));
    await refresh(app);
    expect(await hit()).toBe(11);
  });

  it('keeps serving the last good version of a handler that breaks, and recovers when it is fixed', async () => {
    write('handlers/items_handler.ts', good('"good"'));
    write('handlers/other_handler.ts', good('"other"'));
    await refresh(app);
    write(
      'handlers/items_handler.ts',
      `${header}export const router = new Router();\nrouter.get('/v', () => ({ v: 'broken' })\n`,
    );
    write('handlers/other_handler.ts', good('"other 2"'));
    const result = await refresh(app);
    expect(result).toMatchObject({ status: 'partial', handlers: ['items_handler.ts', 'other_handler.ts'] });
    expect(result.errors).toEqual([{ file: 'items_handler.ts', message: expect.any(String), line: 4, column: 1 }]);
    expect(await value('/api/adaptive/items/v')).toEqual({ v: 'good' });
    expect(await value('/api/adaptive/other/v')).toEqual({ v: 'other 2' });

    write(
      'handlers/items_handler.ts',
      `${header}export const router = new Router();\nthrow new Error('still broken');\n`,
    );
    expect((await refresh(app)).errors).toEqual([
      { file: 'items_handler.ts', message: 'threw while loading: Error: still broken', line: 3, column: 7 },
    ]);
    expect(await value('/api/adaptive/items/v')).toEqual({ v: 'good' });

    write('handlers/items_handler.ts', good('"fixed"'));
    expect(await refresh(app)).toMatchObject({ status: 'success', errors: [] });
    expect(await value('/api/adaptive/items/v')).toEqual({ v: 'fixed' });
  });

  it('drops the routes of a deleted handler', async () => {
    write('handlers/gone_handler.ts', good('1'));
    await refresh(app);
    fs.rmSync(path.join(workspace, 'handlers/gone_handler.ts'));
    expect((await refresh(app)).handlers).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/api/adaptive/gone/v' })).statusCode).toBe(404);
  });

  it('serves a handler reached through a symlink, as in a mounted ConfigMap', async () => {
    write('handlers/..data/linked_handler.ts', good('"linked"'));
    fs.symlinkSync('..data/linked_handler.ts', path.join(workspace, 'handlers/linked_handler.ts'));
    await refresh(app);
    expect(await value('/api/adaptive/linked/v')).toEqual({ v: 'linked' });
    write(
      'handlers/..data/linked_handler.ts',
      `${header}export const router = new Router();\n\nthrow new Error('x');\n`,
    );
    expect((await refresh(app)).errors).toEqual([
      { file: 'linked_handler.ts', message: 'threw while loading: Error: x', line: 4, column: 7 },
    ]);
  });
});

describe('hot reload', () => {
  it('reloads a changed handler on save, without a refresh call', async () => {
    const workspace = makeWorkspace({ 'handlers/live_handler.ts': good('1') });
    const app = await startServer(workspace, { HOT_RELOAD: 'true' });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/adaptive/live/v' })).json()).toEqual({ v: 1 });
      const reloaded = new Promise((resolve) => app.gateway.once('reload', resolve));
      writeFile(workspace, 'handlers/live_handler.ts', good('2'));
      await reloaded;
      expect((await app.inject({ method: 'GET', url: '/api/adaptive/live/v' })).json()).toEqual({ v: 2 });
    } finally {
      await app.close();
      removeWorkspace(workspace);
    }
  });
});
