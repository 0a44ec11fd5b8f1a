import { afterAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';

const spec31 = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'v31', version: '1' },
  paths: {
    '/notes': {
      post: {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['text'],
                properties: {
                  text: { type: ['string', 'null'] },
                  tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'ok', content: { 'application/json': { example: { id: 1 } } } } },
      },
    },
  },
});

const spec30 = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'v30', version: '1' },
  paths: {
    '/search': {
      get: {
        parameters: [
          { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'integer' } } },
          { name: 'when', in: 'query', schema: { type: 'string', format: 'date' } },
          { name: 'note', in: 'query', schema: { type: 'string', nullable: true, format: 'int64-ish' } },
        ],
        responses: { '200': { description: 'ok', content: { 'application/json': { example: [] } } } },
      },
    },
  },
});

const workspace = makeWorkspace({ 'specs/v31.openapi.json': spec31, 'specs/v30.openapi.json': spec30 });
afterAll(() => removeWorkspace(workspace));

describe('request validation', () => {
  it('validates OpenAPI 3.1 bodies with JSON Schema 2020-12 type arrays', async () => {
    const app = await startServer(workspace);
    try {
      const post = (payload: object) => app.inject({ method: 'POST', url: '/api/adaptive/v31/notes', payload });
      expect((await post({ text: null })).statusCode).toBe(201);
      expect((await post({ text: 5 })).json().errors).toEqual([
        { in: 'body', name: 'text', message: 'must be string,null' },
      ]);
      expect((await post({ text: 'a', tags: ['x', 'y', 'z'] })).json().errors).toEqual([
        { in: 'body', name: 'tags', message: 'must NOT have more than 2 items' },
      ]);
    } finally {
      await app.close();
    }
  });

  it('coerces repeated and single query values into arrays and checks formats', async () => {
    const app = await startServer(workspace);
    try {
      expect((await app.inject({ url: '/api/adaptive/v30/search?tags=1&tags=2' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/adaptive/v30/search?tags=1' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/adaptive/v30/search?tags=x' })).json().errors).toEqual([
        { in: 'query', name: 'tags', message: 'must be integer' },
      ]);
      expect((await app.inject({ url: '/api/adaptive/v30/search?when=yesterday' })).json().errors[0]).toMatchObject({
        in: 'query',
        name: 'when',
      });
      expect((await app.inject({ url: '/api/adaptive/v30/search?note=anything' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('can be switched off', async () => {
    const app = await startServer(workspace, { REQUEST_VALIDATION: 'false' });
    try {
      expect(
        (await app.inject({ method: 'POST', url: '/api/adaptive/v31/notes', payload: { text: 5 } })).statusCode,
      ).toBe(201);
    } finally {
      await app.close();
    }
  });
});
