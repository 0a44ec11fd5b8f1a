import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';
import { workspaceDiagnostics } from '../../workbench/diagnostics.js';
import { violationsHeader } from './contract.js';

// ajv-formats is CommonJS with a default export object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** `{code: int, message: string}`: the error shape of many APIs. */
const errorSchema = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'integer' }, message: { type: 'string' } },
};
/** RFC 7807 problem details. */
const problemSchema = {
  type: 'object',
  required: ['title', 'status', 'detail'],
  properties: {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
  },
};
/** A schema no value satisfies: a message of at least 10 and at most 5 characters. */
const impossibleSchema = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string', minLength: 10, maxLength: 5 } },
};
/** A code of the API's own vocabulary, which the mock's code does not meet. */
const enumSchema = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'string', enum: ['E_INPUT', 'E_OTHER'] }, message: { type: 'string' } },
};
/** `{errors: [{field, message}]}`. */
const listSchema = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};
const pet = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
};

const json = (schema: unknown, extra: Record<string, unknown> = {}) => ({
  content: { 'application/json': { schema, ...extra } },
});
const requiredQuery = [{ name: 'n', in: 'query', required: true, schema: { type: 'integer' } }];
const ok = { '200': { description: 'ok', ...json({ type: 'object' }, { example: {} }) } };

const shop = {
  openapi: '3.0.3',
  info: { title: 'shop', version: '1' },
  paths: {
    '/orders': {
      post: {
        requestBody: {
          required: true,
          ...json({ type: 'object', required: ['qty'], properties: { qty: { type: 'integer', minimum: 1 } } }),
        },
        responses: {
          '201': { description: 'created', ...json({ type: 'object' }, { example: { id: 1 } }) },
          '400': { description: 'also declared: 422 wins', ...json(problemSchema) },
          '422': {
            description: 'invalid',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Error' } },
              'application/xml': { example: '<error>invalid</error>' },
            },
          },
        },
      },
    },
    '/orders/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          ...ok,
          '400': { description: 'bad', content: { 'application/problem+json': { schema: problemSchema } } },
        },
      },
    },
    '/plain': { get: { parameters: requiredQuery, responses: ok } },
    '/impossible': {
      get: { parameters: requiredQuery, responses: { ...ok, '422': { description: 'x', ...json(impossibleSchema) } } },
    },
    '/enum': {
      get: { parameters: requiredQuery, responses: { ...ok, '422': { description: 'x', ...json(enumSchema) } } },
    },
    '/listed': {
      get: { parameters: requiredQuery, responses: { ...ok, '422': { description: 'x', ...json(listSchema) } } },
    },
    '/defaulted': {
      get: { parameters: requiredQuery, responses: { ...ok, default: { description: 'any', ...json(errorSchema) } } },
    },
    '/bare': { get: { parameters: requiredQuery, responses: { ...ok, '422': { description: 'no content' } } } },
    '/example': {
      get: {
        parameters: requiredQuery,
        responses: { ...ok, '422': { description: 'x', ...json({ type: 'string' }, { example: 'abc' }) } },
      },
    },
    '/nothing': { get: { responses: {} } },
    '/notes': {
      post: {
        responses: {
          ...ok,
          '415': { description: 'refused', content: { 'text/plain': { example: 'no body allowed' } } },
        },
      },
      put: {
        requestBody: json({ type: 'object' }),
        responses: { ...ok, '415': { description: 'refused', ...json(errorSchema) } },
      },
      delete: { responses: ok },
    },
  },
  components: { schemas: { Error: errorSchema } },
};

const pets = {
  openapi: '3.1.0',
  info: { title: 'pets', version: '1' },
  'x-adaptive-state': true,
  paths: {
    '/pets': {
      get: {
        responses: {
          '200': { description: 'all', ...json({ type: 'array', items: pet }, { example: [{ id: 1, name: 'Rex' }] }) },
        },
      },
      post: {
        requestBody: json(pet),
        responses: {
          '201': { description: 'created', ...json(pet) },
          default: { description: 'conflict or full', ...json(problemSchema) },
        },
      },
    },
    '/pets/{petId}': {
      get: {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'one', ...json(pet) }, '404': { $ref: '#/components/responses/NotFound' } },
      },
      delete: {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '204': { description: 'gone' } },
      },
    },
  },
  components: { responses: { NotFound: { description: 'missing', ...json(errorSchema) } } },
};

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
/** Asserts that `body` satisfies `schema`, naming Ajv's complaints when it does not. */
function expectValid(schema: object, body: unknown): void {
  const validate = ajv.compile(schema);
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
}

let workspace: string;
let app: FastifyInstance;
let origin: string;
beforeAll(async () => {
  workspace = makeWorkspace({ 'specs/shop.json': JSON.stringify(shop), 'specs/pets.json': JSON.stringify(pets) });
  // Three pets at most: the one of the example and two more.
  app = await startServer(workspace, { MOCK_STATE_MAX_ITEMS: '3' });
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  removeWorkspace(workspace);
});

async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${origin}/api/adaptive${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    type,
    text,
    body: /json/.test(type) && text !== '' ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    violations: response.headers.get(violationsHeader),
  };
}

describe('validation failures answer the status and schema the operation declares', () => {
  it('a declared 422 {code, message} wins over a declared 400, filled from the error', async () => {
    const answer = await call('/shop/orders', { method: 'POST', body: { qty: 0 } });
    expect(answer.status).toBe(422);
    expectValid(errorSchema, answer.body);
    expect(answer.body).toEqual({ code: 422, message: expect.stringContaining('body qty must be >= 1') });
    expect(answer.violations).toBeNull();
  });

  it('a declared 400 RFC 7807 body gets title, status, detail and instance, as its declared media type', async () => {
    const answer = await call('/shop/orders/abc');
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/^application\/problem\+json/);
    expectValid(problemSchema, answer.body);
    expect(answer.body).toMatchObject({
      title: 'Bad Request',
      status: 400,
      detail: expect.stringContaining('path id'),
      instance: '/api/adaptive/shop/orders/abc',
    });
  });

  it('an operation that declares no error keeps the 400 {detail, code, errors}', async () => {
    const answer = await call('/shop/plain?n=x');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ in: 'query', name: 'n' }] });
  });

  it('`default` is used with the status 400, and a list of faults fills an array of objects', async () => {
    const defaulted = await call('/shop/defaulted');
    expect(defaulted.status).toBe(400);
    expectValid(errorSchema, defaulted.body);
    expect(defaulted.body).toEqual({ code: 400, message: expect.stringContaining('query n is required') });
    const listed = await call('/shop/listed');
    expect(listed.status).toBe(422);
    expectValid(listSchema, listed.body);
    expect(listed.body).toEqual({ errors: [{ field: 'query.n', message: 'is required' }] });
  });

  it('a schema with no room for the error gets the example; a response without content keeps our body', async () => {
    const example = await call('/shop/example');
    expect([example.status, example.body ?? JSON.parse(example.text)]).toEqual([422, 'abc']);
    const bare = await call('/shop/bare');
    expect(bare.status).toBe(422);
    expect(bare.body).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it("a filled property that breaks the schema keeps the example's value; the others are filled", async () => {
    const answer = await call('/shop/enum');
    expect(answer.status).toBe(422);
    expectValid(enumSchema, answer.body);
    expect(answer.body).toEqual({ code: 'E_INPUT', message: expect.stringContaining('query n is required') });
    expect(answer.violations).toBeNull();
  });

  it('respects Accept among the declared media types', async () => {
    const answer = await call('/shop/orders', { method: 'POST', body: {}, headers: { accept: 'application/xml' } });
    expect([answer.status, answer.type, answer.text]).toEqual([422, 'application/xml', '<error>invalid</error>']);
  });

  it('a body that still breaks the schema says so in x-adaptive-violations', async () => {
    const answer = await call('/shop/impossible');
    expect(answer.status).toBe(422);
    const violations = JSON.parse(answer.violations ?? '[]') as Array<{ path: string }>;
    expect(violations.map((v) => v.path)).toEqual(['body.message']);
    const validate = ajv.compile(impossibleSchema);
    expect(validate(answer.body)).toBe(false);
  });
});

describe('an operation without responses', () => {
  it('answers 501 MOCK_NO_RESPONSES and is a load warning naming it', async () => {
    const answer = await call('/shop/nothing');
    expect(answer.status).toBe(501);
    expect(answer.body).toEqual({ code: 'MOCK_NO_RESPONSES', detail: expect.stringContaining('GET /nothing') });
    const messages = workspaceDiagnostics(app.gateway)
      .filter((d) => d.path === 'specs/shop.json')
      .map((d) => d.message);
    expect(messages).toContain('GET /nothing: declares no responses; the mock answers 501 MOCK_NO_RESPONSES');
  });
});

describe("the stateful mode's errors", () => {
  it('a missing item is the declared 404 {code, message}', async () => {
    const answer = await call('/pets/pets/99');
    expect(answer.status).toBe(404);
    expectValid(errorSchema, answer.body);
    expect(answer.body).toEqual({ code: 404, message: expect.stringContaining('99') });
  });

  it('a conflict (409) and a full collection (507) take the `default` problem schema', async () => {
    const conflict = await call('/pets/pets', { method: 'POST', body: { id: 1, name: 'Again' } });
    expect(conflict.status).toBe(409);
    expectValid(problemSchema, conflict.body);
    expect(conflict.body).toMatchObject({ status: 409, title: 'Conflict' });
    for (const id of [2, 3])
      expect((await call('/pets/pets', { method: 'POST', body: { id, name: 'n' } })).status).toBe(201);
    const full = await call('/pets/pets', { method: 'POST', body: { id: 4, name: 'n' } });
    expect(full.status).toBe(507);
    expectValid(problemSchema, full.body);
    expect(full.body).toMatchObject({ status: 507, detail: expect.stringContaining('MOCK_STATE_MAX_ITEMS') });
  });

  it('an error the operation declares nothing for keeps its body', async () => {
    const answer = await call('/pets/pets/98', { method: 'DELETE' });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'MOCK_ITEM_NOT_FOUND' });
  });
});

describe('a body the operation does not declare is refused with 415, as the spec declares it', () => {
  const send = (method: string, path: string, contentType?: string, body?: string) =>
    fetch(`${origin}/api/adaptive/shop${path}`, {
      method,
      headers: contentType ? { 'content-type': contentType } : {},
      body,
    });

  it("answers a body sent to an operation without requestBody with the operation's 415", async () => {
    const refused = await send('POST', '/notes', 'text/plain', 'empty');
    expect(refused.status).toBe(415);
    expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await refused.text()).toBe('no body allowed');
    expect((await send('POST', '/notes')).status).toBe(200);
    // A Content-Type with an empty body is no body.
    expect((await send('POST', '/notes', 'text/plain', '')).status).toBe(200);
  });

  it('answers {detail, code} where the operation declares no 415', async () => {
    const refused = await send('DELETE', '/notes', 'application/json', '{"a":1}');
    expect(refused.status).toBe(415);
    expect(await refused.json()).toEqual({
      code: 'BODY_NOT_ALLOWED',
      detail: 'DELETE /notes declares no request body; send the request without one',
    });
    expect((await send('DELETE', '/notes')).status).toBe(200);
  });

  it("answers an undeclared Content-Type with the operation's 415 too", async () => {
    const refused = await send('PUT', '/notes', 'text/plain', 'text');
    expect(refused.status).toBe(415);
    const body = await refused.json();
    expectValid(errorSchema, body);
    expect(body).toEqual({ code: 415, message: expect.stringContaining('text/plain is not accepted') });
  });
});
