import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer, writeFile } from '../../test-support/workspace.js';

const pet = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string' } },
};
const newPet = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, tag: { type: 'string' } },
};
const node = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
  },
};
const json = (schema: unknown, example?: unknown) => ({
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});

/** A pet store with a collection of pets (integer ids), owners (string ids) and a recursive tree. */
function petstore(options: { state?: boolean; ownerName?: string } = {}): string {
  const item = (name: string, schema: string, idType = 'string') => ({
    get: {
      parameters: [{ name, in: 'path', required: true, schema: { type: idType } }],
      responses: {
        '200': { description: 'one', ...json({ $ref: `#/components/schemas/${schema}` }) },
        '404': { description: 'missing' },
      },
    },
    put: {
      parameters: [{ name, in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: json({ type: 'object' }),
      responses: { '200': { description: 'replaced', ...json({ $ref: `#/components/schemas/${schema}` }) } },
    },
    patch: {
      parameters: [{ name, in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: json({ type: 'object' }),
      responses: { '200': { description: 'updated', ...json({ $ref: `#/components/schemas/${schema}` }) } },
    },
    delete: {
      parameters: [{ name, in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '204': { description: 'gone' } },
    },
  });
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'pets', version: '1' },
    ...(options.state === undefined ? {} : { 'x-adaptive-state': options.state }),
    paths: {
      '/pets': {
        get: {
          responses: {
            '200': {
              description: 'all',
              ...json({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }, [
                { id: 1, name: 'Rex', tag: 'dog' },
                { id: 2, name: 'Tom', tag: 'cat' },
              ]),
            },
          },
        },
        post: {
          requestBody: { required: true, ...json({ $ref: '#/components/schemas/NewPet' }) },
          responses: { '201': { description: 'created', ...json({ $ref: '#/components/schemas/Pet' }) } },
        },
      },
      // An integer path parameter: validation coerces it, the state still finds the item.
      '/pets/{petId}': item('petId', 'Pet', 'integer'),
      '/owners': {
        get: {
          responses: {
            '200': {
              description: 'page',
              ...json({ type: 'object' }, { total: 1, data: [{ id: 'a1', name: options.ownerName ?? 'Ann' }] }),
            },
          },
        },
        post: {
          requestBody: json({ type: 'object' }),
          responses: { '201': { description: 'created', ...json({ type: 'object' }) } },
        },
      },
      '/owners/{ownerId}': item('ownerId', 'Owner'),
      '/nodes': {
        get: {
          responses: {
            '200': { description: 'all', ...json({ type: 'array', items: { $ref: '#/components/schemas/Node' } }) },
          },
        },
        post: {
          requestBody: json({ $ref: '#/components/schemas/Node' }),
          responses: { '201': { description: 'created', ...json({ $ref: '#/components/schemas/Node' }) } },
        },
      },
      '/nodes/{id}': item('id', 'Node'),
    },
    components: {
      schemas: {
        Pet: pet,
        NewPet: newPet,
        Owner: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
        Node: node,
      },
    },
  });
}

let workspace: string;
let app: FastifyInstance | undefined;
let origin: string;
afterEach(async () => {
  await app?.close();
  app = undefined;
  removeWorkspace(workspace);
});

async function serve(spec: string, env: Record<string, string> = {}): Promise<void> {
  workspace = makeWorkspace({ 'specs/petstore.json': spec });
  app = await startServer(workspace, env);
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
}

const base = () => `${origin}/api/adaptive/petstore`;
async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(base() + path, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    violations: response.headers.get('x-adaptive-violations'),
    location: response.headers.get('location'),
  };
}

describe('stateful resources', () => {
  it(
    'creates, lists, reads back, updates and deletes items, seeded from the examples; 404 {detail} for a ' +
      'missing item',
    async () => {
      await serve(petstore({ state: true }));
      expect(await call('GET', '/pets')).toMatchObject({
        status: 200,
        body: [
          { id: 1, name: 'Rex', tag: 'dog' },
          { id: 2, name: 'Tom', tag: 'cat' },
        ],
        violations: null,
      });
      const created = await call('POST', '/pets', { name: 'Kitty', tag: 'cat' });
      expect(created).toMatchObject({ status: 201, body: { id: 3, name: 'Kitty', tag: 'cat' }, violations: null });
      expect(created.location).toBe('/api/adaptive/petstore/pets/3');
      expect((await call('GET', '/pets/3')).body).toEqual({ id: 3, name: 'Kitty', tag: 'cat' });
      expect((await call('PATCH', '/pets/3', { tag: 'lion' })).body).toEqual({ id: 3, name: 'Kitty', tag: 'lion' });
      // PUT replaces: fields the body leaves out come from the spec's example item, the id from the path.
      expect((await call('PUT', '/pets/3', { name: 'Leo', id: 99 })).body).toEqual({ id: 3, name: 'Leo', tag: 'dog' });
      expect((await call('GET', '/pets')).body).toHaveLength(3);
      expect(await call('DELETE', '/pets/3')).toMatchObject({ status: 204, body: undefined });
      expect(await call('GET', '/pets/3')).toMatchObject({
        status: 404,
        body: { detail: 'No item of /pets has id 3 in the mock state', code: 'MOCK_ITEM_NOT_FOUND' },
      });
      expect((await call('PATCH', '/pets/3', { tag: 'x' })).status).toBe(404);
      expect((await call('DELETE', '/pets/3')).status).toBe(404);
      // A client-chosen id that is taken is a conflict, not an overwrite.
      expect(await call('POST', '/pets', { id: 1, name: 'Again' })).toMatchObject({
        status: 409,
        body: { detail: 'An item of /pets with id 1 already exists in the mock state' },
      });
    },
  );

  it(
    'keeps an envelope list shape, assigns UUIDs where the examples use string ids, and leaves Prefer to the ' +
      'example modes',
    async () => {
      await serve(petstore({ state: true }));
      const created = await call('POST', '/owners', { name: 'Bob' });
      expect(created.status).toBe(201);
      expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
      // The envelope of the example is kept, its total counts the items.
      expect((await call('GET', '/owners')).body).toEqual({
        total: 2,
        data: [
          { id: 'a1', name: 'Ann' },
          { id: created.body.id, name: 'Bob' },
        ],
      });
      expect((await call('GET', `/owners/${created.body.id}`)).body).toEqual({ id: created.body.id, name: 'Bob' });
      // Prefer asks for the spec's examples: the state is not consulted.
      expect((await call('GET', '/owners/nobody', undefined, { prefer: 'code=200' })).status).toBe(200);
    },
  );

  it(
    'is off by default; MOCK_STATE turns it on for every spec, and x-adaptive-state: false keeps one spec ' +
      'stateless',
    async () => {
      await serve(petstore());
      await call('POST', '/pets', { name: 'Kitty' });
      expect((await call('GET', '/pets')).body).toHaveLength(2);
      expect((await call('GET', '/pets/77')).status).toBe(200);
      await app!.close();
      removeWorkspace(workspace);
      await serve(petstore(), { MOCK_STATE: 'true' });
      expect((await call('POST', '/pets', { name: 'Kitty' })).status).toBe(201);
      expect((await call('GET', '/pets')).body).toHaveLength(3);
      await app!.close();
      removeWorkspace(workspace);
      await serve(petstore({ state: false }), { MOCK_STATE: 'true' });
      await call('POST', '/pets', { name: 'Kitty' });
      expect((await call('GET', '/pets')).body).toHaveLength(2);
    },
  );

  it('loses no write under concurrent POSTs, and readers always see a whole list', async () => {
    await serve(petstore({ state: true }));
    const writes = Array.from({ length: 100 }, (_, i) => call('POST', '/pets', { name: `pet${i}` }));
    const reads = Array.from({ length: 50 }, () => call('GET', '/pets'));
    const [written, read] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
    expect(written.every((w) => w.status === 201)).toBe(true);
    expect(new Set(written.map((w) => w.body.id)).size).toBe(100);
    for (const r of read) {
      expect(r.status).toBe(200);
      expect(
        r.body.every((p: { id: number; name: string }) => Number.isInteger(p.id) && typeof p.name === 'string'),
      ).toBe(true);
    }
    const all = (await call('GET', '/pets')).body as Array<{ id: number }>;
    expect(all.map((p) => p.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 102 }, (_, i) => i + 1));
  });

  it('answers 507 {detail} beyond MOCK_STATE_MAX_ITEMS and MOCK_STATE_MAX_BYTES, while reads go on', async () => {
    await serve(petstore({ state: true }), { MOCK_STATE_MAX_ITEMS: '3', MOCK_STATE_MAX_BYTES: '20kb' });
    expect((await call('POST', '/pets', { name: 'third' })).status).toBe(201);
    const full = await call('POST', '/pets', { name: 'fourth' });
    expect(full).toMatchObject({
      status: 507,
      body: {
        detail:
          'The mock collection /pets holds its limit of 3 items (MOCK_STATE_MAX_ITEMS); delete items or reset ' +
          'the state',
      },
    });
    expect((await call('GET', '/pets')).body).toHaveLength(3);
    const huge = { id: 1, children: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: 'leaf' })) };
    expect(await call('POST', '/nodes', huge)).toMatchObject({
      status: 507,
      body: {
        detail:
          'The mock state of petstore would exceed 20480 bytes (MOCK_STATE_MAX_BYTES); delete items or reset the state',
      },
    });
    expect(await call('GET', '/nodes')).toMatchObject({ status: 200, body: [] });
  });

  it('stores and validates recursive items without hanging', async () => {
    await serve(petstore({ state: true }));
    let tree: Record<string, unknown> = { id: 0 };
    for (let depth = 1; depth < 60; depth++) tree = { id: depth, children: [tree] };
    expect(await call('POST', '/nodes', tree)).toMatchObject({ status: 201, violations: null });
    expect((await call('GET', '/nodes/59')).body).toEqual(tree);
  });

  it('reports answers that break the response schema in x-adaptive-violations', async () => {
    await serve(petstore({ state: true }));
    // NewPet does not forbid an id, so a string id is stored; Pet says ids are integers.
    const created = await call('POST', '/pets', { id: 'abc', name: 'Odd' });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.violations!)).toEqual([{ in: 'response', path: 'body.id', rule: 'must be integer' }]);
    expect(JSON.parse((await call('GET', '/pets')).violations!)).toEqual([
      { in: 'response', path: 'body.2.id', rule: 'must be integer' },
    ]);
  });

  it('resets one mount or all through the actuator; an unknown mount is 404', async () => {
    await serve(petstore({ state: true }));
    await call('POST', '/pets', { name: 'Kitty' });
    await call('DELETE', '/pets/1');
    const reset = await fetch(`${origin}/api/adaptive/actuator/state/reset?mount=petstore`, { method: 'POST' });
    expect(await reset.json()).toEqual({ reset: ['petstore'] });
    expect((await call('GET', '/pets')).body.map((p: { id: number }) => p.id)).toEqual([1, 2]);
    const unknown = await fetch(`${origin}/api/adaptive/actuator/state/reset?mount=nope`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      detail: 'No stateful spec is mounted at "nope"',
      code: 'MOCK_MOUNT_UNKNOWN',
    });
    expect(await (await fetch(`${origin}/api/adaptive/actuator/state/reset`, { method: 'POST' })).json()).toEqual({
      reset: ['petstore'],
    });
  });

  it('keeps the state of unchanged resources across a spec reload and reseeds the changed ones', async () => {
    await serve(petstore({ state: true }));
    await call('POST', '/pets', { name: 'Kitty' });
    await call('POST', '/owners', { name: 'Bob' });
    writeFile(workspace, 'specs/petstore.json', petstore({ state: true, ownerName: 'Anna' }));
    const refreshed = await fetch(`${origin}/api/adaptive/actuator/refresh`, { method: 'POST' });
    expect(((await refreshed.json()) as { status: string }).status).toBe('success');
    expect((await call('GET', '/pets')).body).toHaveLength(3);
    expect((await call('GET', '/owners')).body.data).toEqual([{ id: 'a1', name: 'Anna' }]);
  });
});
