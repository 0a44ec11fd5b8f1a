import type http from 'node:http';
import type net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseRefusal } from './python-messages.js';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';

const refresh = async (app: FastifyInstance) =>
  (await app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json();

/** Answers the gateway must not pass on as they are. */
const oddHandler = `from fastapi import APIRouter
from fastapi.responses import Response, StreamingResponse
router = APIRouter()

@router.get("/status")
async def status():
    return Response(content=b"{}", status_code=777, media_type="application/json")

@router.get("/big")
async def big():
    return Response(content=b"x" * (2 * 1024 * 1024), media_type="text/plain")

@router.get("/stream")
async def stream():
    async def chunks():
        for _ in range(64):
            yield b"x" * 65536
    return StreamingResponse(chunks(), media_type="text/plain")

@router.get("/ok")
async def ok():
    return {"ok": True}
`;

/** A module that writes a ready line of its own on the protocol's pipe (fd 3) before the worker's. */
const forgedReady = `import json, os
from fastapi import APIRouter
os.write(3, (json.dumps({"ready": True, "routes": [{"method": "GET", "path": 5}], "openapi": {}}) + "\\n").encode())
router = APIRouter()

@router.get("/x")
async def x():
    return {}
`;

describe('what a Python worker sends the gateway is checked', () => {
  let workspace: string;
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    workspace = makeWorkspace({
      'handlers/odd_handler.py': oddHandler,
      'handlers/forged_handler.py': forgedReady,
      'handlers/other_handler.py':
        'from fastapi import APIRouter\nrouter = APIRouter()\n\n@router.get("/ping")\n' +
        'async def ping():\n    return {"pong": True}\n',
    });
    app = await startServer(workspace, { HANDLER_RESPONSE_LIMIT: '1mb' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}/api/adaptive`;
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  it('reports a forged ready line as a load error', async () => {
    expect((await refresh(app)).errors).toContainEqual({
      file: 'forged_handler.py',
      message: "the Python worker's ready line is not valid: routes[0].path is not under /api/adaptive/forged",
    });
    expect((await fetch(`${base}/other/ping`)).status).toBe(200);
  });

  it('answers a status HTTP does not have with a 502 {detail, code}, and the worker serves on', async () => {
    // uvicorn drops the connection itself; the gateway's own check (below) is there for what gets through.
    const [odd, other] = await Promise.all([fetch(`${base}/odd/status`), fetch(`${base}/other/ping`)]);
    expect(odd.status).toBe(502);
    expect(await odd.json()).toMatchObject({ code: expect.stringMatching(/^HANDLER_(PROTOCOL_ERROR|UNAVAILABLE)$/) });
    expect(other.status).toBe(200);
    expect(await (await fetch(`${base}/odd/ok`)).json()).toEqual({ ok: true });
  });

  it('refuses an answer over HANDLER_RESPONSE_LIMIT by its Content-Length, and cuts a stream past it', async () => {
    const big = await fetch(`${base}/odd/big`);
    expect(big.status).toBe(500);
    expect(await big.json()).toEqual({
      detail: 'The handler answered 2097152 bytes, more than HANDLER_RESPONSE_LIMIT (1048576 bytes)',
      code: 'HANDLER_RESPONSE_TOO_LARGE',
    });
    const stream = await fetch(`${base}/odd/stream`);
    const received = await stream.arrayBuffer().then(
      (body) => body.byteLength,
      () => -1,
    );
    // Cut: either the read fails or it ends short of the 4 MB the handler streamed.
    expect(received).toBeLessThanOrEqual(1024 * 1024);
    expect(await (await fetch(`${base}/odd/ok`)).json()).toEqual({ ok: true });
    expect((await fetch(`${base}/other/ping`)).status).toBe(200);
  });
});

describe('responseRefusal', () => {
  const answer = (statusCode: number, headers: Record<string, string> = {}) =>
    ({ statusCode, headers }) as unknown as http.IncomingMessage;

  it('refuses a status outside 100-599 and a Content-Length over the limit, before reading the body', () => {
    expect(responseRefusal(answer(99999), 'a.py', 10)?.body()).toEqual({
      detail: 'The handler a.py answered with status 99999, which is not an HTTP status (100 to 599)',
      code: 'HANDLER_PROTOCOL_ERROR',
    });
    expect(responseRefusal(answer(600), 'a.py', 10)?.status).toBe(502);
    expect(responseRefusal(answer(200, { 'content-length': '11' }), 'a.py', 10)?.code).toBe(
      'HANDLER_RESPONSE_TOO_LARGE',
    );
    expect(responseRefusal(answer(204), 'a.py', 10)).toBeUndefined();
    expect(responseRefusal(answer(200, { 'content-length': '10' }), 'a.py', 10)).toBeUndefined();
  });
});
