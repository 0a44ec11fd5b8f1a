import { describe, expect, it } from 'vitest';
import { makeWorkspace, serverForTests } from '../../test-support/workspace.js';

const item = {
  type: 'object',
  required: ['id', 'status'],
  properties: { id: { type: 'integer' }, status: { type: 'string', enum: ['available', 'sold'] } },
};
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = { description: 'ok', ...json(item) };
const error = {
  description: 'not found',
  ...json({ type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } }),
};
const get = (responses: Record<string, unknown>) => ({
  get: { parameters: [{ name: 'missing', in: 'query', schema: { type: 'integer' } }], responses },
});
const rateLimited = { ...ok, headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer' } } } };

/** The spec the Python handler overrides. */
const spec = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'shop', version: '1' },
  paths: {
    '/valid': get({ 200: ok, 404: error }),
    '/wrong-type': get({ 200: ok }),
    '/bad-enum': get({ 200: ok }),
    '/undeclared': get({ 200: ok }),
    '/thrown': get({ 200: ok, 404: error }),
    '/header': get({ 200: rateLimited }),
    '/with-header': get({ 200: rateLimited }),
    '/typed': get({ 200: ok }),
  },
});

/** Each route but `/valid`, `/with-header` and `/typed` breaks the contract one way: body, status or header. */
const handler = `
from fastapi import APIRouter, HTTPException, Response

router = APIRouter()

@router.get("/valid")
def valid(missing: int = 0):
    if missing:
        raise HTTPException(404, "no such item")
    return {"id": 1, "status": "available"}

@router.get("/wrong-type")
def wrong_type():
    return {"id": "two", "status": "sold"}

@router.get("/bad-enum")
def bad_enum():
    return {"id": 3, "status": "lost"}

@router.get("/undeclared", status_code=201)
def undeclared():
    return {"id": 4, "status": "sold"}

@router.get("/thrown")
def thrown():
    raise HTTPException(409, "conflict")

@router.get("/header")
def header():
    return {"id": 5, "status": "sold"}

@router.get("/with-header")
def with_header(response: Response):
    response.headers["X-Rate-Limit"] = "10"
    return {"id": 6, "status": "sold"}

@router.get("/typed")
def typed(count: int):
    return {"id": count, "status": "sold"}

@router.get("/extra")
def extra():
    return {"anything": True}
`;

const workspace = () => makeWorkspace({ 'specs/shop.openapi.json': spec, 'handlers/shop_handler.py': handler });
const violationsOf = (headers: Record<string, unknown>) =>
  JSON.parse(String(headers['x-adaptive-violations'] ?? '[]')) as Array<{ in: string; path: string; rule: string }>;

const broken: Array<[string, number, unknown[]]> = [
  ['/wrong-type', 200, [{ in: 'response', path: 'body.id', rule: 'must be integer' }]],
  ['/bad-enum', 200, [{ in: 'response', path: 'body.status', rule: expect.stringContaining('allowed values') }]],
  ['/undeclared', 201, [{ in: 'response', path: 'status', rule: 'status 201 is not declared for GET /undeclared' }]],
  ['/thrown', 409, [{ in: 'response', path: 'status', rule: 'status 409 is not declared for GET /thrown' }]],
  ['/header', 200, [{ in: 'response', path: 'header.x-rate-limit', rule: 'is required by the spec and missing' }]],
];

describe('a Python handler held to the contract (CONTRACT_ENFORCE=report, the default)', () => {
  const server = serverForTests(workspace);
  const call = (path: string) => server.app.inject({ url: `/api/adaptive/shop${path}` });

  it('leaves valid answers and a declared HTTPException untouched', async () => {
    const valid = await call('/valid');
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toEqual({ id: 1, status: 'available' });
    expect(valid.headers['x-adaptive-violations']).toBeUndefined();
    const missing = await call('/valid?missing=1');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-adaptive-violations']).toBeUndefined();
    const withHeader = await call('/with-header');
    expect(withHeader.headers['x-rate-limit']).toBe('10');
    expect(withHeader.headers['x-adaptive-violations']).toBeUndefined();
  });

  it.each(broken)('relays %s as the handler answered, its violations listed', async (path, status, violations) => {
    const response = await call(path);
    expect(response.statusCode).toBe(status);
    expect(violationsOf(response.headers)).toEqual(violations);
  });

  it("does not hold FastAPI's refusal of a bad request, or a route that overrides nothing, to a contract", async () => {
    const refused = await call('/typed?count=many');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'HANDLER_VALIDATION_FAILED' });
    expect(refused.headers['x-adaptive-violations']).toBeUndefined();
    const extra = await call('/extra');
    expect(extra.json()).toEqual({ anything: true });
    expect(extra.headers['x-adaptive-violations']).toBeUndefined();
  });
});

describe('a Python handler under CONTRACT_ENFORCE=strict', () => {
  const server = serverForTests(workspace, { CONTRACT_ENFORCE: 'strict' });
  const call = (path: string) => server.app.inject({ url: `/api/adaptive/shop${path}` });

  it.each(broken)('answers %s 500 CONTRACT_VIOLATION with the violations', async (path, _status, violations) => {
    const response = await call(path);
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toMatchObject({ code: 'CONTRACT_VIOLATION', violations });
    expect(body.detail).toContain(`GET /api/adaptive/shop${path}`);
    expect(body.detail).toContain('shop.openapi.json');
    expect(violationsOf(response.headers)).toEqual(violations);
  });

  it('still answers a valid request as the handler did', async () => {
    const response = await call('/with-header');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 6, status: 'sold' });
    expect(response.headers['x-rate-limit']).toBe('10');
  });
});
