import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer, writeFile } from '../../test-support/workspace.js';

const libraryHandler = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'library_api_handler.py'), 'utf8');
const librarySpec = fs.readFileSync(
  path.join(import.meta.dirname, '../../../../specs/library-api.openapi.yaml'),
  'utf8',
);

const refresh = async (app: FastifyInstance) =>
  (await app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json();

describe('the library API as a Python handler', () => {
  let workspace: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    workspace = makeWorkspace({
      'handlers/library_api_handler.py': libraryHandler,
      'specs/library-api.openapi.yaml': librarySpec,
    });
    app = await startServer(workspace);
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  it('creates books with sequential ids and the documented defaults', async () => {
    const first = await app.inject({
      method: 'POST',
      url: '/api/adaptive/library-api/books',
      payload: { title: 'Dune', author: 'Frank Herbert' },
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      id: 1,
      title: 'Dune',
      author: 'Frank Herbert',
      isbn: 'AUTO-1',
      available: true,
      publishedYear: new Date().getUTCFullYear(),
    });
    const second = await app.inject({
      method: 'POST',
      url: '/api/adaptive/library-api/books',
      payload: { title: 'Emma', author: 'Jane Austen', isbn: '978-0141439587', publishedYear: 1815 },
    });
    expect(second.json()).toMatchObject({ id: 2, isbn: '978-0141439587', publishedYear: 1815 });
  });

  it('overrides the spec routes and lists, filters and counts books', async () => {
    const list = (await app.inject({ url: '/api/adaptive/library-api/books' })).json();
    expect(list.count).toBe(2);
    expect(list.books.map((b: { title: string }) => b.title)).toEqual(['Dune', 'Emma']);
    expect((await app.inject({ url: '/api/adaptive/library-api/books?available=false' })).json()).toEqual({
      books: [],
      count: 0,
    });
    expect((await app.inject({ url: '/api/adaptive/library-api/stats' })).json()).toEqual({ total_books: 2 });
  });

  it('answers 400 and 404 with the documented detail, and FastAPI validation 422, each with its code', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/api/adaptive/library-api/books',
      payload: { title: 'No author' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: 'Title and author are required', code: 'HANDLER_HTTP_EXCEPTION' });
    const missing = await app.inject({ url: '/api/adaptive/library-api/books/99' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Book 99 not found', code: 'HANDLER_HTTP_EXCEPTION' });
    // FastAPI's own validation keeps its body (detail lists the errors) and gains the code.
    const typed = await app.inject({ url: '/api/adaptive/library-api/books/abc' });
    expect(typed.statusCode).toBe(422);
    expect(typed.json()).toEqual({
      detail: [expect.objectContaining({ loc: ['path', 'book_id'] })],
      code: 'HANDLER_VALIDATION_FAILED',
    });
  });

  it('lists its routes as handler routes and merges its OpenAPI document', async () => {
    const info = (await app.inject({ url: '/api/adaptive/' })).json();
    expect(info.handlers).toEqual(['library_api_handler.py']);
    expect(info.endpoints).toContainEqual({
      method: 'GET',
      path: '/api/adaptive/library-api/stats',
      source: 'handler',
      file: 'library_api_handler.py',
    });
    expect(info.endpoints).toContainEqual({
      method: 'GET',
      path: '/api/adaptive/library-api/books',
      source: 'handler',
      file: 'library_api_handler.py',
    });
    const document = (await app.inject({ url: '/api/adaptive/openapi.json' })).json();
    expect(document.paths['/library-api/stats'].get).toBeDefined();
    expect(document.paths['/library-api/books/{book_id}'].get.responses['200']).toBeDefined();
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'library_api_handler.Book',
        'library-api.openapi.Book',
        'library_api_handler.BookCreate',
        'HTTPValidationError',
      ]),
    );
    const created = document.paths['/library-api/books'].post.responses['201'].content['application/json'].schema;
    expect(created).toEqual({ $ref: '#/components/schemas/library_api_handler.Book' });
  });
});

describe('Python handler lifecycle', () => {
  let workspace: string;
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
    removeWorkspace(workspace);
  });

  const handler = (greeting: string) =>
    `from fastapi import APIRouter, HTTPException\nrouter = APIRouter()\n\n@router.get("/hello")\nasync def ` +
    (`hello():\n    return {"greeting": "${greeting}"}\n\n@router.get("/boom")\nasync def boom():\n    raise ` +
      `RuntimeError("secret internals")\n`);

  it('reloads a changed module, reports an import error with its line, and keeps the last good version', async () => {
    workspace = makeWorkspace({ 'handlers/greeter_handler.py': handler('hi') });
    app = await startServer(workspace);
    expect((await app.inject({ url: '/api/adaptive/greeter/hello' })).json()).toEqual({ greeting: 'hi' });
    writeFile(workspace, 'handlers/greeter_handler.py', handler('hello again'));
    expect((await refresh(app)).status).toBe('success');
    expect((await app.inject({ url: '/api/adaptive/greeter/hello' })).json()).toEqual({ greeting: 'hello again' });
    writeFile(
      workspace,
      'handlers/greeter_handler.py',
      'from fastapi import APIRouter\nimport no_such_module\nrouter = APIRouter()\n',
    );
    const result = await refresh(app);
    expect(result.status).toBe('partial');
    expect(result.errors).toEqual([
      { file: 'greeter_handler.py', message: expect.stringMatching(/No module named 'no_such_module'/), line: 2 },
    ]);
    expect((await app.inject({ url: '/api/adaptive/greeter/hello' })).json()).toEqual({ greeting: 'hello again' });
  });

  it('reports a syntax error with line and column, and a module without a router', async () => {
    workspace = makeWorkspace({
      'handlers/broken_handler.py': 'def oops(:\n    pass\n',
      'handlers/empty_handler.py': 'x = 1\n',
    });
    app = await startServer(workspace);
    const result = await refresh(app);
    expect(result.status).toBe('failed');
    expect(result.errors).toContainEqual({
      file: 'broken_handler.py',
      message: expect.stringMatching(/SyntaxError/),
      line: 1,
      column: expect.any(Number),
    });
    expect(result.errors).toContainEqual({
      file: 'empty_handler.py',
      message: 'the module has no fastapi.APIRouter named `router`',
    });
  });

  it('answers an exception with 500 {detail} and no internals, and restarts a crashed worker', async () => {
    workspace = makeWorkspace({ 'handlers/greeter_handler.py': handler('hi') });
    app = await startServer(workspace);
    const boom = await app.inject({ url: '/api/adaptive/greeter/boom' });
    expect(boom.statusCode).toBe(500);
    expect(boom.json()).toEqual({ detail: 'Internal error', code: 'INTERNAL' });
    const pids = fs
      .readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return fs
            .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
            .includes(path.join(workspace, 'handlers', 'greeter_handler.py'));
        } catch {
          return false;
        }
      });
    expect(pids).toHaveLength(1);
    process.kill(Number(pids[0]), 'SIGKILL');
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await app.inject({ url: '/api/adaptive/greeter/hello' })).statusCode;
      expect([200, 502, 503]).toContain(status);
    }
    expect(status).toBe(200);
  });

  it('answers a stuck route 504 at the deadline, replaces its worker, and keeps other routes serving', async () => {
    const stuck = `${handler('hi')}\n@router.get("/spin")\nasync def spin():\n    while True:\n        pass\n`;
    workspace = makeWorkspace({ 'handlers/greeter_handler.py': stuck, 'handlers/other_handler.py': handler('other') });
    app = await startServer(workspace, { HANDLER_TIMEOUT_MS: '2000' });
    const started = Date.now();
    let settled = false;
    const spinning = app.inject({ url: '/api/adaptive/greeter/spin' }).then((response) => {
      settled = true;
      return response;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await app.inject({ url: '/api/adaptive/other/hello' })).json()).toEqual({ greeting: 'other' });
    expect(settled).toBe(false);
    const answer = await spinning;
    expect(answer.statusCode).toBe(504);
    expect(answer.json()).toEqual({ detail: 'Handler did not answer within 2000 ms', code: 'HANDLER_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2000 + 1000);
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
      const response = await app.inject({ url: '/api/adaptive/greeter/hello' });
      status = response.statusCode;
      if (status === 503)
        expect(response.json().detail).toMatch(
          /greeter_handler\.py is restarting \(GET \/api\/adaptive\/greeter\/spin did not answer within 2000 ms\)/,
        );
      else expect(status).toBe(200);
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(app.gateway.faults.list()).toContainEqual(
      expect.objectContaining({ file: 'greeter_handler.py', route: 'GET /api/adaptive/greeter/spin' }),
    );
  });

  it('says which interpreters it tried when no Python with FastAPI exists', async () => {
    workspace = makeWorkspace({ 'handlers/greeter_handler.py': handler('hi') });
    app = await startServer(workspace, { HANDLER_PYTHON: '/nonexistent/python3' });
    const result = await refresh(app);
    expect(result.errors).toEqual([
      {
        file: 'greeter_handler.py',
        message: expect.stringMatching(
          /tried \/nonexistent\/python3 \(not found\).*apt-get install python3-fastapi python3-uvicorn/,
        ),
      },
    ]);
  });
});
