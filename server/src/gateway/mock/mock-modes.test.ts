import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const person = {
  type: 'object',
  required: ['id', 'email', 'name', 'createdAt', 'status', 'code', 'age', 'address'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    email: { type: 'string', format: 'email' },
    name: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['active', 'blocked'] },
    code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
    age: { type: 'integer', minimum: 18, maximum: 99 },
    address: {
      type: 'object',
      required: ['city', 'street'],
      properties: { city: { type: 'string' }, street: { type: 'string' } },
    },
    pet: {
      oneOf: [
        { type: 'object', required: ['kind'], properties: { kind: { const: 'cat' } } },
        { type: 'object', required: ['barks'], properties: { barks: { type: 'boolean' } } },
      ],
    },
    tags: { allOf: [{ type: 'array', items: { type: 'string' } }, { maxItems: 4 }] },
  },
};
const node = {
  type: 'object',
  required: ['name', 'children'],
  properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
};
const json = (schema: unknown, extra: Record<string, unknown> = {}) => ({
  description: 'ok',
  content: { 'application/json': { schema, ...extra } },
});

const spec = {
  openapi: '3.0.3',
  info: { title: 'mock modes', version: '1' },
  servers: [{ url: '/api/adaptive/modes' }],
  paths: {
    '/people': {
      get: {
        responses: {
          '200': json(person, { example: { id: 'static' } }),
          '404': json({ type: 'object' }, { example: { detail: 'no such person' } }),
        },
      },
    },
    '/named': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { examples: { one: { value: 1 }, two: { value: 2 } } } },
          },
        },
      },
    },
    '/tree': { get: { responses: { '200': json({ $ref: '#/components/schemas/Node' }) } } },
    '/impossible': { get: { responses: { '200': json({ type: 'string', minLength: 10, maxLength: 2 }) } } },
    '/unmatchable': { get: { responses: { '200': json({ type: 'string', pattern: '^(?!)$' }) } } },
    // With an example: the static sampler would expand minItems at load (rejected there for memory).
    '/huge': {
      get: {
        responses: { '200': json({ type: 'array', minItems: 100000000, items: { type: 'integer' } }, { example: [] }) },
      },
    },
    '/long-pattern': { get: { responses: { '200': json({ type: 'string', pattern: '^a{100000000}$' }) } } },
    '/wide': {
      get: {
        responses: {
          '200': json({ type: 'array', maxItems: 100000000, items: { type: 'string', maxLength: 100000000 } }),
        },
      },
    },
    '/slow': { get: { 'x-mock': { delay: 400 }, responses: { '200': json({ type: 'string' }, { example: 'late' }) } } },
    '/flaky': {
      get: {
        'x-mock': { errorRate: 1, errorStatus: 503 },
        responses: {
          '200': json({ type: 'string' }, { example: 'fine' }),
          '503': json({ type: 'object' }, { example: { detail: 'maintenance' } }),
        },
      },
    },
    '/broken': {
      get: { 'x-mock': { errorRate: 1 }, responses: { '200': json({ type: 'string' }, { example: 'fine' }) } },
    },
  },
  components: { schemas: { Node: node } },
};
const dynamicSpec = {
  ...spec,
  'x-mock': { examples: 'dynamic' },
  servers: [{ url: '/api/adaptive/dynamic' }],
  paths: { '/people': spec.paths['/people'] },
};

let app: FastifyInstance;
let workspace: string;
let base: string;
beforeAll(async () => {
  workspace = makeWorkspace({
    'specs/modes.json': JSON.stringify(spec),
    'specs/dynamic.json': JSON.stringify(dynamicSpec),
  });
  app = await startServer(workspace, { MOCK_MAX_DELAY_MS: '2000' });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
});

async function get(
  path: string,
  prefer?: string,
): Promise<{ status: number; body: unknown; headers: Headers; ms: number }> {
  const started = Date.now();
  const response = await fetch(`${base}/api/adaptive${path}`, { headers: prefer === undefined ? {} : { prefer } });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    headers: response.headers,
    ms: Date.now() - started,
  };
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const matchesPerson = ajv.compile(person);
const matchesTree = ajv.compile({ $ref: '#/components/schemas/Node', components: { schemas: { Node: node } } });

describe('dynamic examples', () => {
  it(
    'Prefer: dynamic=true answers values that follow the schema, plausible for the property names, different ' +
      'per request',
    async () => {
      const bodies = [];
      for (let i = 0; i < 5; i++) {
        const { status, body } = await get('/modes/people', 'dynamic=true');
        expect(status).toBe(200);
        expect(matchesPerson(body), JSON.stringify(matchesPerson.errors)).toBe(true);
        bodies.push(body as Record<string, unknown>);
      }
      expect(new Set(bodies.map((b) => b.id)).size).toBe(5);
      // Faker's names have a space or a capital; json-schema-faker's bare strings are random characters.
      expect(bodies.filter((b) => /^[A-Z][a-z'-]+/.test(String(b.name))).length).toBeGreaterThanOrEqual(4);
    },
  );

  it('the same seed gives the same value, another seed another one', async () => {
    const a = await get('/modes/people', 'dynamic=true; seed=42');
    const b = await get('/modes/people', 'dynamic=true; seed=42');
    const c = await get('/modes/people', 'seed=43');
    expect(a.body).toEqual(b.body);
    expect(c.body).not.toEqual(a.body);
    expect(matchesPerson(a.body), JSON.stringify(matchesPerson.errors)).toBe(true);
    expect(matchesPerson(c.body), JSON.stringify(matchesPerson.errors)).toBe(true);
  });

  it(
    'without Prefer the static example is served; x-mock examples: dynamic turns a whole spec dynamic, ' +
      'dynamic=false turns it back',
    async () => {
      expect((await get('/modes/people')).body).toEqual({ id: 'static' });
      const dynamic = await get('/dynamic/people');
      expect(matchesPerson(dynamic.body)).toBe(true);
      expect((await get('/dynamic/people', 'dynamic=false')).body).toEqual({ id: 'static' });
    },
  );

  it('a recursive schema is generated to a bounded depth', async () => {
    const { status, body } = await get('/modes/tree', 'dynamic=true');
    expect(status).toBe(200);
    expect((body as { name: unknown }).name).toEqual(expect.any(String));
    expect(matchesTree(body), JSON.stringify(matchesTree.errors)).toBe(true);
    expect(JSON.stringify(body).length).toBeLessThan(100_000);
  });

  it('impossible constraints answer 500 naming the rule; other requests are served meanwhile', async () => {
    const impossible = await get('/modes/impossible', 'dynamic=true');
    expect(impossible.status).toBe(500);
    expect(impossible.body).toEqual({
      detail: expect.stringMatching(
        /^Cannot generate a dynamic example for GET \/impossible 200 application\/json: .*(maxLength|minLength)/,
      ),
      code: 'DYNAMIC_EXAMPLE_FAILED',
    });
    const unmatchable = await get('/modes/unmatchable', 'dynamic=true');
    expect(unmatchable.status).toBe(500);
    expect((unmatchable.body as { detail: string }).detail).toMatch(/pattern/);
    expect((await get('/modes/people')).status).toBe(200);
  });

  it('huge arrays and strings are refused or capped at once, without hanging the server', async () => {
    const huge = await get('/modes/huge', 'dynamic=true');
    expect(huge.status).toBe(500);
    expect((huge.body as { detail: string }).detail).toMatch(/minItems 100000000 is over the generator's bound of 20/);
    const repeated = await get('/modes/long-pattern', 'dynamic=true');
    expect(repeated.status).toBe(500);
    expect((repeated.body as { detail: string }).detail).toMatch(/repeats more than/);
    const wide = await get('/modes/wide', 'dynamic=true');
    expect(wide.status).toBe(200);
    expect((wide.body as string[]).length).toBeLessThanOrEqual(20);
    expect(JSON.stringify(wide.body).length).toBeLessThan(20 * 260);
    expect(huge.ms + repeated.ms + wide.ms).toBeLessThan(5000);
  });
});

describe('Prefer values Prism answers with 404, and bad ones', () => {
  it('an undeclared code or example name is a 404 {detail} saying why', async () => {
    expect(await get('/modes/people', 'code=500')).toMatchObject({
      status: 404,
      body: { detail: 'Prefer: code=500 names a response GET /people does not declare (declared: 200, 404)' },
    });
    expect(await get('/modes/named', 'example=three')).toMatchObject({
      status: 404,
      body: {
        detail: 'Prefer: example=three names no example of GET /named 200 application/json (examples: one, two)',
      },
    });
    expect(await get('/modes/named', 'example=two')).toMatchObject({ status: 200, body: 2 });
    expect(await get('/modes/people', 'code=404')).toMatchObject({ status: 404, body: { detail: 'no such person' } });
  });

  it('a known preference with a bad value is a 400 naming it; unknown preferences are ignored', async () => {
    expect(await get('/modes/people', 'code=abc')).toMatchObject({
      status: 400,
      body: { detail: 'Prefer: code=abc is not valid: expected a status code from 100 to 599' },
    });
    expect(await get('/modes/people', 'dynamic=maybe')).toMatchObject({
      status: 400,
      body: { detail: 'Prefer: dynamic=maybe is not valid: expected true or false' },
    });
    expect(await get('/modes/people', 'delay=-5')).toMatchObject({ status: 400 });
    expect(await get('/modes/people', 'delay=5000')).toMatchObject({
      status: 400,
      body: { detail: 'Prefer: delay=5000 is not valid: expected at most MOCK_MAX_DELAY_MS (2000 ms)' },
    });
    expect(await get('/modes/people', 'return=minimal, respond-async')).toMatchObject({
      status: 200,
      body: { id: 'static' },
    });
  });
});

describe('faults', () => {
  it(
    'Prefer: delay= answers after the delay, with the fault in x-mock-fault; other requests are not held ' + 'up',
    async () => {
      const delayed = get('/modes/people', 'delay=600');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const other = await get('/modes/people');
      expect(other.status).toBe(200);
      expect(other.ms).toBeLessThan(500);
      const answer = await delayed;
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeGreaterThanOrEqual(590);
      expect(answer.headers.get('x-mock-fault')).toBe('delay=600ms');
      expect(other.headers.get('x-mock-fault')).toBeNull();
    },
  );

  it("a route's x-mock delay applies to every request", async () => {
    const answer = await get('/modes/slow');
    expect(answer).toMatchObject({ status: 200, body: 'late' });
    expect(answer.ms).toBeGreaterThanOrEqual(390);
    expect(answer.headers.get('x-mock-fault')).toBe('delay=400ms');
  });

  it("an error rate answers the spec's own response for the error status, else a {detail} of that status", async () => {
    const flaky = await get('/modes/flaky');
    expect(flaky).toMatchObject({ status: 503, body: { detail: 'maintenance' } });
    expect(flaky.headers.get('x-mock-fault')).toBe('error=503');
    const broken = await get('/modes/broken');
    expect(broken).toMatchObject({
      status: 500,
      body: { detail: 'Fault injected by the mock (x-mock.errorRate 1 of GET /broken)', code: 'INJECTED_FAULT' },
    });
  });
});
