import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';
import { expandedSchema, recursionLimit } from './schema-expansion.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// A shop as a frontend developer meets it: `$ref`s three and more deep, formats, patterns, enums, oneOf, allOf and
// a recursive category tree, answered dynamically; every answer is checked against its schema.
const schemas = {
  Money: {
    type: 'object',
    required: ['amount', 'currency'],
    properties: { amount: { type: 'number', minimum: 0 }, currency: { type: 'string', enum: ['EUR', 'SEK', 'USD'] } },
  },
  Category: {
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: { type: 'integer', minimum: 1 },
      name: { type: 'string', minLength: 1 },
      parent: { $ref: '#/components/schemas/Category' },
      children: { type: 'array', items: { $ref: '#/components/schemas/Category' } },
    },
  },
  Product: {
    type: 'object',
    required: ['sku', 'name', 'price', 'category'],
    properties: {
      sku: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
      name: { type: 'string' },
      price: { $ref: '#/components/schemas/Money' },
      category: { $ref: '#/components/schemas/Category' },
    },
  },
  OrderLine: {
    type: 'object',
    required: ['product', 'quantity'],
    properties: { product: { $ref: '#/components/schemas/Product' }, quantity: { type: 'integer', minimum: 1 } },
  },
  Person: {
    type: 'object',
    required: ['kind', 'email'],
    properties: { kind: { type: 'string', enum: ['person'] }, email: { type: 'string', format: 'email' } },
  },
  Company: {
    type: 'object',
    required: ['kind', 'vat'],
    properties: { kind: { type: 'string', enum: ['company'] }, vat: { type: 'string', pattern: '^SE[0-9]{12}$' } },
  },
  Order: {
    allOf: [
      {
        type: 'object',
        required: ['id', 'placedAt', 'status', 'lines', 'customer', 'total'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          placedAt: { type: 'string', format: 'date-time' },
          status: { type: 'string', enum: ['open', 'paid', 'shipped', 'lost'] },
          lines: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/OrderLine' } },
          customer: { oneOf: [{ $ref: '#/components/schemas/Person' }, { $ref: '#/components/schemas/Company' }] },
          total: { $ref: '#/components/schemas/Money' },
        },
      },
    ],
  },
};

const json = (ref: string) => ({ description: 'ok', content: { 'application/json': { schema: { $ref: ref } } } });
const shopSpec = (openapi: string, mount: string) => ({
  openapi,
  info: { title: `Shop ${openapi}`, version: '1.0.0' },
  servers: [{ url: `/api/adaptive/${mount}` }],
  paths: {
    '/orders/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { responses: { '200': json('#/components/schemas/Order') } },
    },
    '/products/{sku}': {
      parameters: [{ name: 'sku', in: 'path', required: true, schema: { type: 'string' } }],
      get: { responses: { '200': json('#/components/schemas/Product') } },
    },
    '/categories/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { responses: { '200': json('#/components/schemas/Category') } },
    },
    '/lines': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/OrderLine' } } },
            },
          },
        },
      },
    },
  },
  components: { schemas },
});

const routes: [string, string][] = [
  ['/orders/o-1', 'Order'],
  ['/products/ABC-1234', 'Product'],
  ['/categories/3', 'Category'],
  ['/orders/o-2', 'Order'],
  ['/products/XYZ-0001', 'Product'],
];

let app: FastifyInstance;
let workspace: string;
let base: string;
beforeAll(async () => {
  workspace = makeWorkspace({
    'specs/shop30.json': JSON.stringify(shopSpec('3.0.3', 'shop30')),
    'specs/shop31.json': JSON.stringify(shopSpec('3.1.0', 'shop31')),
  });
  app = await startServer(workspace);
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
});

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ components: { schemas } }, 'shop');
const validator = (name: string) => ajv.getSchema(`shop#/components/schemas/${name}`)!;

async function dynamic(
  mount: string,
  path: string,
  prefer = 'dynamic=true',
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}/api/adaptive/${mount}${path}`, { headers: { prefer } });
  return { status: response.status, body: await response.json() };
}

/** The deepest chain of `key` links (`parent`, or `children[0]`) in a generated category. */
function depthOf(category: unknown, next: (c: Record<string, unknown>) => unknown): number {
  let depth = 0;
  for (let node = category; node && typeof node === 'object'; node = next(node as Record<string, unknown>)) depth++;
  return depth;
}

describe.each(['shop30', 'shop31'])('dynamic answers over nested $refs (%s)', (mount) => {
  it('are valid against their schema, 100 of 100 over five routes', async () => {
    const failures: string[] = [];
    for (let i = 0; i < 100; i++) {
      const [path, schema] = routes[i % routes.length];
      const { status, body } = await dynamic(mount, path);
      const validate = validator(schema);
      if (status !== 200 || !validate(body))
        failures.push(`${path} ${status} ${JSON.stringify(validate.errors ?? body).slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('follow patterns and generate the three-deep chain whole', async () => {
    const { body } = await dynamic(mount, '/orders/o-9');
    const order = body as { lines: { product: { sku: string; category: { id: number } } }[] };
    expect(order.lines.length).toBeGreaterThan(0);
    for (const line of order.lines) {
      expect(line.product.sku).toMatch(/^[A-Z]{3}-[0-9]{4}$/);
      expect(line.product.category.id).toBeGreaterThanOrEqual(1);
    }
  });

  it('are fresh on every request without a seed: 40 requests, 40 bodies', async () => {
    const bodies = new Set<string>();
    for (let i = 0; i < 40; i++) bodies.add(JSON.stringify((await dynamic(mount, '/orders/o-1')).body));
    expect(bodies.size).toBe(40);
  });

  it('repeat with a seed', async () => {
    const a = await dynamic(mount, '/orders/o-1', 'dynamic=true; seed=7');
    const b = await dynamic(mount, '/orders/o-1', 'dynamic=true; seed=7');
    expect(a.body).toEqual(b.body);
  });

  it('stop a recursive tree at a bounded depth', async () => {
    for (let i = 0; i < 10; i++) {
      const { status, body } = await dynamic(mount, '/categories/1');
      expect(status).toBe(200);
      expect(validator('Category')(body)).toBe(true);
      expect(depthOf(body, (c) => c.parent)).toBeLessThanOrEqual(recursionLimit + 2);
      expect(depthOf(body, (c) => (c.children as unknown[] | undefined)?.[0])).toBeLessThanOrEqual(recursionLimit + 2);
    }
  });
});

/** A schema tree as nested records, to walk in the tests. */
type SchemaTree = { properties: Record<string, SchemaTree>; maxItems?: number } & Record<string, unknown>;

describe('expandedSchema', () => {
  const document = { components: { schemas } };

  it('inlines a chain of distinct schemas whole', () => {
    const line = expandedSchema(document, '#/components/schemas/OrderLine') as SchemaTree;
    expect(line.properties.product.properties.category.properties.name).toEqual({ type: 'string', minLength: 1 });
    expect(JSON.stringify(line)).not.toContain('$ref');
  });

  it('cuts a recursion after the limit: the optional property goes, the array may hold nothing', () => {
    let category = expandedSchema(document, '#/components/schemas/Category') as SchemaTree;
    for (let level = 0; level < recursionLimit; level++) {
      expect(category.properties.parent).toBeDefined();
      category = category.properties.parent;
    }
    expect(category.properties.parent).toBeUndefined();
    expect(category.properties.children.maxItems).toBe(0);
  });

  it('keeps a required recursion as an empty schema and refuses what does not resolve', () => {
    const loop = {
      components: {
        schemas: { A: { type: 'object', required: ['a'], properties: { a: { $ref: '#/components/schemas/A' } } } },
      },
    };
    expect(JSON.stringify(expandedSchema(loop, '#/components/schemas/A'))).toContain('"a":{}');
    expect(expandedSchema(document, '#/components/schemas/Nothing')).toBeUndefined();
  });

  it('gives up on a schema that would expand past its node bound instead of growing without limit', () => {
    // Each level refers to the next twice: 2^30 nodes if expanded.
    const wide: Record<string, unknown> = { L30: { type: 'string' } };
    for (let i = 0; i < 30; i++)
      wide[`L${i}`] = {
        type: 'object',
        properties: { a: { $ref: `#/components/schemas/L${i + 1}` }, b: { $ref: `#/components/schemas/L${i + 1}` } },
      };
    expect(expandedSchema({ components: { schemas: wide } }, '#/components/schemas/L0')).toBeUndefined();
  });
});
