import { describe, expect, it } from 'vitest';
import { diffSpecs, diffSpecsInSlices } from './spec-diff.js';
import { changeKinds } from './change-kinds.js';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A small spec that touches every part the diff compares; each case changes one thing of a copy. */
function base(): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Orders', version: '1' },
    servers: [{ url: '/api' }, { url: 'https://eu.example.com/api' }],
    paths: {
      '/orders': {
        get: {
          operationId: 'listOrders',
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100, default: 20 } },
            { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'ok',
              headers: { 'X-Total': { schema: { type: 'integer' } } },
              content: {
                'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Order' } } },
              },
            },
            '404': { description: 'none' },
          },
        },
        post: {
          operationId: 'createOrder',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/NewOrder' } } } },
          responses: { '201': { description: 'created' } },
        },
      },
      '/orders/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { security: [{ key: [] }], responses: { '200': { description: 'ok' } } },
        delete: { responses: { '204': { description: 'gone' } } },
      },
    },
    components: {
      schemas: {
        Order: {
          type: 'object',
          required: ['id', 'status'],
          properties: {
            id: { type: 'integer' },
            status: { type: 'string', enum: ['new', 'paid'] },
            note: { type: 'string', nullable: true },
            amount: { type: 'number' },
            ref: { type: 'string', pattern: '^R' },
            pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] },
          },
        },
        NewOrder: {
          type: 'object',
          required: ['item'],
          properties: {
            item: { type: 'string', maxLength: 50, minLength: 1 },
            count: { type: 'integer', minimum: 1 },
            kind: { type: 'string', enum: ['a', 'b'] },
            tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
            code: { type: 'string' },
            price: { type: 'number', format: 'double' },
            payment: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
          },
        },
        Cat: { type: 'object', properties: { name: { type: 'string' } } },
        Dog: { type: 'object', properties: { name: { type: 'string' } } },
      },
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
    },
  };
}

const order = (d: Doc) => d.components.schemas.Order;
const newOrder = (d: Doc) => d.components.schemas.NewOrder;
const list = (d: Doc) => d.paths['/orders'].get;
const ok = (d: Doc) => list(d).responses['200'];

/** [kind, expected verdict, the change]: each case makes exactly one change of the base. */
const cases: Array<[string, 'breaking' | 'non-breaking', (d: Doc) => void]> = [
  ['path-removed', 'breaking', (d) => delete d.paths['/orders/{id}']],
  [
    'path-added',
    'non-breaking',
    (d) => (d.paths['/refunds'] = { get: { responses: { '200': { description: 'ok' } } } }),
  ],
  ['operation-removed', 'breaking', (d) => delete d.paths['/orders/{id}'].delete],
  [
    'operation-added',
    'non-breaking',
    (d) => (d.paths['/orders/{id}'].put = { responses: { '200': { description: 'ok' } } }),
  ],
  ['operation-id-changed', 'non-breaking', (d) => (list(d).operationId = 'getOrders')],
  ['operation-deprecated', 'non-breaking', (d) => (list(d).deprecated = true)],
  ['server-url-changed', 'breaking', (d) => (d.servers[0].url = '/v2')],
  ['server-removed', 'breaking', (d) => d.servers.pop()],
  ['server-added', 'non-breaking', (d) => d.servers.push({ url: 'https://us.example.com/api' })],
  ['security-added', 'breaking', (d) => (d.paths['/orders/{id}'].delete.security = [{ key: [] }])],
  ['security-removed', 'non-breaking', (d) => delete d.paths['/orders/{id}'].get.security],
  ['security-alternative-added', 'non-breaking', (d) => d.paths['/orders/{id}'].get.security.push({ other: [] })],
  ['security-changed', 'breaking', (d) => (d.paths['/orders/{id}'].get.security = [{ other: [] }])],
  ['parameter-removed', 'breaking', (d) => list(d).parameters.shift()],
  [
    'parameter-added',
    'non-breaking',
    (d) => list(d).parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } }),
  ],
  ['parameter-added-required', 'breaking', (d) => list(d).parameters.push({ name: 'q', in: 'query', required: true })],
  ['parameter-made-required', 'breaking', (d) => (list(d).parameters[0].required = true)],
  ['parameter-made-optional', 'non-breaking', (d) => (list(d).parameters[1].required = false)],
  ['parameter-location-changed', 'breaking', (d) => (list(d).parameters[0].in = 'header')],
  ['parameter-deprecated', 'non-breaking', (d) => (list(d).parameters[0].deprecated = true)],
  ['type-changed', 'breaking', (d) => (list(d).parameters[0].schema.type = 'string')],
  ['maximum-lowered', 'breaking', (d) => (list(d).parameters[0].schema.maximum = 50)],
  ['maximum-raised', 'non-breaking', (d) => (list(d).parameters[0].schema.maximum = 500)],
  ['default-changed', 'breaking', (d) => (list(d).parameters[0].schema.default = 10)],
  ['request-body-made-required', 'breaking', (d) => (d.paths['/orders'].post.requestBody.required = true)],
  ['request-body-removed', 'breaking', (d) => delete d.paths['/orders'].post.requestBody],
  ['request-body-added', 'non-breaking', (d) => (d.paths['/orders/{id}'].delete.requestBody = { content: {} })],
  [
    'request-body-added-required',
    'breaking',
    (d) => (d.paths['/orders/{id}'].delete.requestBody = { required: true, content: {} }),
  ],
  ['request-media-type-removed', 'breaking', (d) => (d.paths['/orders'].post.requestBody.content = {})],
  ['request-media-type-added', 'non-breaking', (d) => (d.paths['/orders'].post.requestBody.content['text/csv'] = {})],
  ['property-made-required', 'breaking', (d) => newOrder(d).required.push('count')],
  [
    'property-added-required',
    'breaking',
    (d) => ((newOrder(d).properties.sku = { type: 'string' }), newOrder(d).required.push('sku')),
  ],
  ['property-added', 'non-breaking', (d) => (newOrder(d).properties.sku = { type: 'string' })],
  ['property-removed', 'non-breaking', (d) => delete newOrder(d).properties.code],
  ['maxLength-lowered', 'breaking', (d) => (newOrder(d).properties.item.maxLength = 20)],
  ['maxLength-raised', 'non-breaking', (d) => (newOrder(d).properties.item.maxLength = 80)],
  ['minLength-raised', 'breaking', (d) => (newOrder(d).properties.item.minLength = 3)],
  ['minimum-raised', 'breaking', (d) => (newOrder(d).properties.count.minimum = 2)],
  ['minimum-lowered', 'non-breaking', (d) => (newOrder(d).properties.count.minimum = 0)],
  ['type-narrowed', 'breaking', (d) => (newOrder(d).properties.price.type = 'integer')],
  ['type-widened', 'non-breaking', (d) => (newOrder(d).properties.count.type = 'number')],
  ['enum-value-removed', 'breaking', (d) => newOrder(d).properties.kind.enum.pop()],
  ['enum-value-added', 'non-breaking', (d) => newOrder(d).properties.kind.enum.push('c')],
  ['enum-added', 'breaking', (d) => (newOrder(d).properties.code.enum = ['x'])],
  ['maxItems-lowered', 'breaking', (d) => (newOrder(d).properties.tags.maxItems = 5)],
  ['pattern-added', 'breaking', (d) => (newOrder(d).properties.code.pattern = '^[A-Z]+$')],
  ['format-changed', 'breaking', (d) => (newOrder(d).properties.price.format = 'float')],
  ['anyOf-branch-removed', 'breaking', (d) => newOrder(d).properties.payment.anyOf.pop()],
  ['additional-properties-disallowed', 'breaking', (d) => (newOrder(d).additionalProperties = false)],
  ['response-status-removed', 'breaking', (d) => delete list(d).responses['404']],
  ['response-status-added', 'non-breaking', (d) => (list(d).responses['429'] = { description: 'slow down' })],
  ['response-media-type-removed', 'breaking', (d) => delete ok(d).content['application/json']],
  ['response-media-type-added', 'non-breaking', (d) => (ok(d).content['application/xml'] = {})],
  ['response-header-removed', 'breaking', (d) => delete ok(d).headers['X-Total']],
  ['response-header-added', 'non-breaking', (d) => (ok(d).headers['X-Page'] = { schema: { type: 'integer' } })],
  ['property-removed', 'breaking', (d) => delete order(d).properties.note],
  ['property-made-optional', 'breaking', (d) => order(d).required.pop()],
  ['property-made-required', 'non-breaking', (d) => order(d).required.push('note')],
  [
    'property-added-required',
    'non-breaking',
    (d) => ((order(d).properties.total = {}), order(d).required.push('total')),
  ],
  ['enum-value-added', 'breaking', (d) => order(d).properties.status.enum.push('lost')],
  ['enum-value-removed', 'non-breaking', (d) => order(d).properties.status.enum.pop()],
  ['enum-removed', 'breaking', (d) => delete order(d).properties.status.enum],
  ['type-widened', 'breaking', (d) => (order(d).properties.id.type = ['integer', 'string'])],
  ['type-narrowed', 'non-breaking', (d) => (order(d).properties.amount.type = 'integer')],
  ['nullable-removed', 'non-breaking', (d) => delete order(d).properties.note.nullable],
  ['nullable-added', 'breaking', (d) => (order(d).properties.id.nullable = true)],
  ['oneOf-branch-removed', 'non-breaking', (d) => order(d).properties.pet.oneOf.pop()],
  ['oneOf-branch-added', 'breaking', (d) => order(d).properties.pet.oneOf.push({ type: 'string' })],
  ['pattern-removed', 'breaking', (d) => delete order(d).properties.ref.pattern],
  ['deprecated-added', 'non-breaking', (d) => (order(d).properties.note.deprecated = true)],
];

describe('diffSpecs', () => {
  it('finds nothing between equal documents, and never changes its inputs', () => {
    const old = base();
    const frozen = JSON.stringify(old);
    expect(diffSpecs(old, base())).toEqual([]);
    expect(JSON.stringify(old)).toBe(frozen);
  });

  it.each(cases)('%s is %s', (kind, verdict, change) => {
    const neu = base();
    change(neu);
    const changes = diffSpecs(base(), neu);
    expect(changes.map((c) => `${c.verdict} ${c.kind}`)).toEqual([`${verdict} ${kind}`]);
    expect(changes[0]!.where).not.toBe('');
    expect(changes[0]!.pointer).toMatch(/^#\//);
  });

  it('covers at least 30 kinds, each with its verdict', () => {
    expect(new Set(cases.map(([kind]) => kind)).size).toBeGreaterThanOrEqual(30);
    for (const [kind] of cases) expect(Object.keys(changeKinds)).toContain(kind);
  });

  it('reports a change of a shared component at each operation that uses it, with the field', () => {
    const neu = base();
    neu.paths['/orders'].get.responses['404'] = list(neu).responses['200'];
    const old = base();
    old.paths['/orders'].get.responses['404'] = list(old).responses['200'];
    delete order(neu).properties.note;
    const changes = diffSpecs(old, neu);
    expect(changes.map((c) => c.where)).toEqual([
      'GET /orders response 200 application/json [].note',
      'GET /orders response 404 application/json [].note',
    ]);
    expect(changes[0]!.pointer).toBe('#/paths/~1orders/get/responses/200/content/application~1json/schema');
  });

  it('takes a renamed path parameter for the same path and parameter', () => {
    const neu = base();
    const item = neu.paths['/orders/{id}'];
    item.parameters[0].name = 'orderId';
    neu.paths['/orders/{orderId}'] = item;
    delete neu.paths['/orders/{id}'];
    expect(diffSpecs(base(), neu)).toEqual([]);
  });

  it('ends on reference cycles and compares references that do not resolve as they are', () => {
    const cyclic = () => {
      const d = base();
      order(d).properties.parent = { $ref: '#/components/schemas/Order' };
      order(d).properties.lost = { $ref: '#/components/schemas/Missing' };
      return d;
    };
    const neu = cyclic();
    order(neu).properties.status.enum.push('lost');
    expect(diffSpecs(cyclic(), neu).map((c) => `${c.verdict} ${c.kind}`)).toEqual(['breaking enum-value-added']);
  });

  it('takes anything that is not a document for an empty one, without throwing', () => {
    expect(diffSpecs('text', null)).toEqual([]);
    expect(diffSpecs({ paths: { '/a': 'junk' } }, { paths: { '/a': { get: 7 } } })).toEqual([
      expect.objectContaining({ kind: 'operation-added', verdict: 'non-breaking' }),
    ]);
  });

  it('finds the same in slices as at once, giving the event loop a turn between slices', async () => {
    const neu = base();
    delete neu.paths['/orders/{id}'].delete;
    order(neu).properties.status.enum.push('lost');
    // Queued after the comparison's first pause: it runs before the comparison ends only if it pauses again.
    let turns = 0;
    const pending = diffSpecsInSlices(base(), neu, 0);
    setImmediate(() => turns++);
    const sliced = await pending;
    expect(sliced).toEqual(diffSpecs(base(), neu));
    expect(sliced).toHaveLength(2);
    expect(turns).toBeGreaterThan(0);
  });
});
