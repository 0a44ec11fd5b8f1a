import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { findPython } from './python-interpreter.js';
import { pythonWorkerScript } from './python-worker.js';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';

const refresh = async (app: FastifyInstance) =>
  (await app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json();

/** Three levels of include_router, each with a prefix, and routers with prefixes of their own. */
const nestedHandler = `from fastapi import APIRouter
inner = APIRouter(prefix="/inner")

@inner.get("/leaf/{name}")
async def leaf(name: str):
    return {"leaf": name}

middle = APIRouter()

@middle.post("/made", status_code=201)
async def made():
    return {"made": True}

middle.include_router(inner, prefix="/deep")
router = APIRouter()
router.include_router(middle, prefix="/middle")
`;

describe('routes of a Python handler through nested routers', () => {
  let workspace: string;
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
    removeWorkspace(workspace);
  });

  it('serves and lists routes included several levels deep, with every prefix', async () => {
    workspace = makeWorkspace({ 'handlers/nested_handler.py': nestedHandler });
    app = await startServer(workspace);
    expect((await refresh(app)).errors).toEqual([]);
    const leaf = await app.inject({ url: '/api/adaptive/nested/middle/deep/inner/leaf/oak' });
    expect(leaf.statusCode).toBe(200);
    expect(leaf.json()).toEqual({ leaf: 'oak' });
    expect((await app.inject({ method: 'POST', url: '/api/adaptive/nested/middle/made' })).statusCode).toBe(201);
    const listed = (await app.inject({ url: '/api/adaptive/' })).json().endpoints;
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'GET', path: '/api/adaptive/nested/middle/deep/inner/leaf/{name}' }),
        expect.objectContaining({ method: 'POST', path: '/api/adaptive/nested/middle/made' }),
      ]),
    );
  });

  it('reports a router with no routes as a load error, while another handler serves', async () => {
    workspace = makeWorkspace({
      'handlers/nested_handler.py': nestedHandler,
      'handlers/hollow_handler.py': 'from fastapi import APIRouter\nrouter = APIRouter()\n',
    });
    app = await startServer(workspace);
    const result = await refresh(app);
    expect(result.errors).toContainEqual({
      file: 'hollow_handler.py',
      message: expect.stringMatching(/^`router` has no routes the gateway can serve \(GET, POST, PUT, DELETE, PATCH\)/),
    });
    expect((await app.inject({ url: '/api/adaptive/nested/middle/deep/inner/leaf/elm' })).statusCode).toBe(200);
  });
});

/**
 * The route listing on the shape current FastAPI (about 0.140 on) gives `include_router`: one entry per
 * included router, holding the router (`original_router`) and its prefix (`include_context.prefix`),
 * whose own routes' paths leave that prefix out. Built here on whatever FastAPI is installed (Debian's
 * 0.92), since the newer one cannot be installed on this machine; plus a mounted sub-application.
 */
const shapeScript = `
import json, sys, types
sys.path.insert(0, sys.argv[1])
import adaptive_worker
from fastapi import APIRouter, FastAPI
from starlette.routing import BaseRoute

class Included(BaseRoute):
    def __init__(self, router, prefix):
        self.original_router = router
        self.include_context = types.SimpleNamespace(prefix=prefix)

inner = APIRouter(prefix="/inner")
inner.add_api_route("/leaf", lambda: None, methods=["GET", "HEAD"])
middle = APIRouter(prefix="/middle")
middle.add_api_route("/made", lambda: None, methods=["POST"])
middle.routes.append(Included(inner, middle.prefix + "/deep"))
sub = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
sub.add_api_route("/ping", lambda: None, methods=["PUT"])
app = FastAPI()
app.add_api_route("/outside", lambda: None, methods=["GET"])
app.router.routes.append(Included(middle, "/api/adaptive/x"))
app.mount("/api/adaptive/x/sub", sub)
print(json.dumps(adaptive_worker.routes_of(app, "/api/adaptive/x")))
`;

describe('the Python worker route listing', () => {
  it("walks current FastAPI's included-router entries and mounted applications, with their prefixes", async () => {
    const python = await findPython(process.env.TEST_HANDLER_PYTHON);
    const { stdout } = await promisify(execFile)(python.command, [
      '-c',
      shapeScript,
      pythonWorkerScript.replace(/\/adaptive_worker\.py$/, ''),
    ]);
    expect(JSON.parse(stdout)).toEqual([
      { method: 'POST', path: '/api/adaptive/x/middle/made' },
      { method: 'GET', path: '/api/adaptive/x/middle/deep/inner/leaf' },
      { method: 'PUT', path: '/api/adaptive/x/sub/ping' },
    ]);
  });
});
