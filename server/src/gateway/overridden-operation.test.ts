import { describe, expect, it } from 'vitest';
import { overriddenOperation } from './overridden-operation.js';

describe('overriddenOperation', () => {
  const spec = {
    summary: 'spec summary',
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
    requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
    responses: {
      '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
    },
  };
  it('keeps the spec documentation where the handler declares no schema', () => {
    const handler = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': { description: 'OK', content: { 'application/json': {} } } },
    };
    expect(overriddenOperation(spec, handler)).toEqual(spec);
  });
  it("takes the handler's own summary, body, schema'd responses and extra parameters", () => {
    const handler = {
      summary: 'handler',
      parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
      requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        '200': { description: 'OK', content: { 'application/json': { schema: { type: 'string' } } } },
        '400': { description: 'Invalid request' },
      },
    };
    expect(overriddenOperation(spec, handler)).toEqual({
      summary: 'handler',
      parameters: [...spec.parameters, handler.parameters[0]],
      requestBody: handler.requestBody,
      responses: handler.responses,
    });
  });
});
