import { describe, expect, it } from 'vitest';
import { makeWorkspace, serverForTests } from '../test-support/workspace.js';
import { allowedBodyDepth, freeFormDepth, maxBodyDepth, nestingDepth, schemaDepth } from './body-depth.js';

/** `{"v": {"v": ... 1 ...}}` nested `depth` objects deep. */
const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { v: value };
  return value;
};

const spec = `openapi: 3.0.3
info: {title: Deep, version: 1.0.0}
servers: [{url: /api/adaptive/deep}]
paths:
  /books:
    post:
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {title: {type: string}}}
      responses: {'201': {description: created, content: {application/json: {example: {id: 1, title: Dune}}}}}
    get:
      responses: {'200': {description: ok, content: {application/json: {example: [{id: 1}]}}}}
  /trees:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Node'}
      responses: {'201': {description: created, content: {application/json: {example: {}}}}}
components:
  schemas:
    Node: {type: object, properties: {child: {$ref: '#/components/schemas/Node'}}}
`;

describe('nestingDepth and schemaDepth', () => {
  it('counts object and array levels, and stops counting past the limit', () => {
    expect(nestingDepth(1, 10)).toBe(0);
    expect(nestingDepth({ a: [1, { b: 2 }] }, 10)).toBe(3);
    expect(nestingDepth(nested(100_000), 50)).toBe(51);
  });

  it('reads the depth a schema declares, a recursive one as the bound', () => {
    const document = {
      components: {
        schemas: { Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } } },
      },
    };
    expect(
      schemaDepth(document, {
        type: 'object',
        properties: { a: { type: 'array', items: { type: 'object', properties: { b: {} } } } },
      }),
    ).toBe(3);
    expect(
      schemaDepth(document, { allOf: [{ properties: { a: {} } }, { properties: { a: { properties: { b: {} } } } }] }),
    ).toBe(2);
    expect(schemaDepth(document, { $ref: '#/components/schemas/Node' })).toBe(maxBodyDepth);
    expect(allowedBodyDepth(document, { type: 'string' })).toBe(freeFormDepth);
  });

  it('reads references that branch and join again in the time of their number, not of their paths', () => {
    // S0 refers to S1 twice, S1 to S2 twice...: 2^60 paths through 60 schemas.
    const schemas: Record<string, unknown> = { S60: { type: 'string' } };
    for (let i = 0; i < 60; i++)
      schemas[`S${i}`] = {
        type: 'object',
        properties: { a: { $ref: `#/components/schemas/S${i + 1}` }, b: { $ref: `#/components/schemas/S${i + 1}` } },
      };
    expect(schemaDepth({ components: { schemas } }, { $ref: '#/components/schemas/S0' })).toBe(60);
  });
});

describe('a generated route with a deeply nested body', () => {
  const server = serverForTests(() => makeWorkspace({ 'specs/deep.openapi.yaml': spec }));
  const post = (url: string, body: unknown) =>
    server.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers 400 for 100,000 levels in an undeclared property, and other requests are served meanwhile', async () => {
    const [deep, list] = await Promise.all([
      post('/api/adaptive/deep/books', `{"title":"x","extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
      server.app.inject('/api/adaptive/deep/books'),
    ]);
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toEqual({
      detail: `Request body is nested deeper than ${freeFormDepth} levels`,
      code: 'BODY_TOO_DEEP',
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([{ id: 1 }]);
  });

  it('echoes a body within the bound', async () => {
    const response = await post('/api/adaptive/deep/books', { title: 'x', extra: nested(freeFormDepth - 1) });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ id: 1, title: 'x', extra: nested(freeFormDepth - 1) });
  });

  it('allows what a recursive schema declares, up to the bound', async () => {
    const chain = (depth: number): unknown => (depth === 1 ? {} : { child: chain(depth - 1) });
    expect((await post('/api/adaptive/deep/trees', chain(200))).statusCode).toBe(201);
    const tooDeep = await post('/api/adaptive/deep/trees', chain(maxBodyDepth + 1));
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json().detail).toBe(`Request body is nested deeper than ${maxBodyDepth} levels`);
  });
});
