import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';
import { validationDocument } from './validation-document.js';

describe('validationDocument', () => {
  it('returns the document itself when no data value carries an identifier', () => {
    const document = {
      openapi: '3.1.0',
      components: { schemas: { A: { $id: 'urn:a', type: 'object', example: { id: 1 } } } },
    };
    expect(validationDocument(document)).toBe(document);
  });
  it('strips $id and $anchor from examples, defaults and extensions only, copying just what changes', () => {
    const schemas = { Untouched: { type: 'string' } };
    const document = {
      paths: {
        '/a': {
          get: {
            responses: {
              '200': { content: { 'application/json': { examples: { one: { value: { $id: 'x', n: 1 } } } } } },
            },
          },
        },
      },
      components: {
        schemas,
        examples: { two: { value: [{ $anchor: 'y' }] } },
        parameters: {
          P: { name: 'p', in: 'query', schema: { $id: 'urn:keep', type: 'object', default: { $id: 'x' } } },
        },
      },
      'x-vendor': { $id: 'x' },
    };
    const result = validationDocument(document) as typeof document;
    expect(result.paths['/a'].get.responses['200'].content['application/json'].examples.one.value).toEqual({ n: 1 });
    expect(result.components.examples.two.value).toEqual([{}]);
    expect(result.components.parameters.P.schema).toEqual({ $id: 'urn:keep', type: 'object', default: {} });
    expect(result['x-vendor']).toEqual({});
    expect(result.components.schemas).toBe(schemas);
    expect(document.paths['/a'].get.responses['200'].content['application/json'].examples.one.value).toEqual({
      $id: 'x',
      n: 1,
    });
  });
  it('keeps a schema that is a property named example or default', () => {
    const document = { components: { schemas: { A: { properties: { example: { $id: 'urn:e', type: 'string' } } } } } };
    expect(validationDocument(document)).toBe(document);
  });
  it('keeps the bundled external documents (schemas) of x-bundled', () => {
    const document = { 'x-bundled': { 'common.yaml': { Thing: { $id: 'urn:thing', type: 'object' } } } };
    expect(validationDocument(document)).toBe(document);
  });
});

const spec = `openapi: 3.0.3
info: {title: ids, version: '1'}
servers: [{url: /api/adaptive/ids}]
paths:
  /files:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/File'}
            example: {metadata: {$id: 01234500-12f1-1234-aa12-b1d234cb567e}}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/File'}
              example: {name: a, metadata: {$id: 01234500-12f1-1234-aa12-b1d234cb567e}}
components:
  schemas:
    File:
      type: object
      required: [name]
      properties:
        name: {type: string}
        metadata:
          type: object
          properties:
            $id: {type: string}
`;

describe('a spec whose examples repeat an "$id" value (Box)', () => {
  let workspace: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    workspace = makeWorkspace({ 'specs/ids.openapi.yaml': spec });
    app = await startServer(workspace);
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  it('loads, validates requests and still serves the examples unchanged', async () => {
    expect(app.gateway.loadProblems).toEqual([]);
    const created = await app.inject({ method: 'POST', url: '/api/adaptive/ids/files', payload: { name: 'b' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ name: 'b', metadata: { $id: '01234500-12f1-1234-aa12-b1d234cb567e' } });
    expect(
      (await app.inject({ method: 'POST', url: '/api/adaptive/ids/files', payload: { name: 5 } })).statusCode,
    ).toBe(400);
  });
});
