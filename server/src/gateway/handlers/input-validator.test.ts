import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { t } from '../../handler-sdk/index.js';
import { handlerAjv, RouteInputValidator } from './input-validator.js';

/** The parts of a Fastify request the validator reads. */
function request(url: string, query: Record<string, string> = {}): FastifyRequest {
  return { url, query, headers: {}, body: undefined } as unknown as FastifyRequest;
}

describe('query input of a handler route', () => {
  it('gives a request without a query string an empty query of its own when the schema accepts one', () => {
    const validator = new RouteInputValidator(
      { query: t.Object({ available: t.Optional(t.Boolean()) }) },
      handlerAjv(),
    );
    const first = validator.read(request('/books'), {}).query;
    expect(first).toEqual({});
    first.mutated = true;
    expect(validator.read(request('/books'), {}).query).toEqual({});
    expect(validator.read(request('/books?available=true', { available: 'true' }), {}).query).toEqual({
      available: true,
    });
  });

  it('still refuses a missing required parameter without a query string', () => {
    const required = new RouteInputValidator({ query: t.Object({ q: t.String() }) }, handlerAjv());
    expect(() => required.read(request('/search'), {})).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('validates a query string that is present, even an empty one', () => {
    const validator = new RouteInputValidator(
      { query: t.Object({ available: t.Optional(t.Boolean()) }) },
      handlerAjv(),
    );
    expect(() => validator.read(request('/books?available=maybe', { available: 'maybe' }), {})).toThrow(
      expect.objectContaining({ status: 400 }),
    );
    expect(validator.read(request('/books?', {}), {}).query).toEqual({});
  });
});
