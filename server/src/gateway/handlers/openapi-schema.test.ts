import { describe, expect, it } from 'vitest';
import { t } from '../../handler-sdk/index.js';
import { openApiSchema } from './openapi-schema.js';

describe('openApiSchema', () => {
  it('drops TypeBox symbols and keeps plain JSON Schema', () => {
    const schema = t.Object({ id: t.Integer({ minimum: 1 }), name: t.Optional(t.String()) });
    const converted = openApiSchema(schema);
    expect(Object.getOwnPropertySymbols(converted)).toEqual([]);
    expect(converted).toEqual({
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string' } },
    });
  });

  it('turns const into a one-value enum, at any depth, without touching property names or values', () => {
    const schema = t.Object(
      { const: t.Literal('x'), list: t.Array(t.Union([t.Literal(1), t.Literal(2)])) },
      { default: { const: 'kept' } },
    );
    expect(openApiSchema(schema)).toEqual({
      type: 'object',
      required: ['const', 'list'],
      default: { const: 'kept' },
      properties: {
        const: { type: 'string', enum: ['x'] },
        list: {
          type: 'array',
          items: {
            anyOf: [
              { type: 'number', enum: [1] },
              { type: 'number', enum: [2] },
            ],
          },
        },
      },
    });
  });

  it('turns a union with null into nullable', () => {
    expect(openApiSchema(t.Union([t.String(), t.Null()]))).toEqual({ type: 'string', nullable: true });
    expect(openApiSchema(t.Union([t.String(), t.Integer(), t.Null()]))).toEqual({
      anyOf: [{ type: 'string' }, { type: 'integer' }],
      nullable: true,
    });
  });

  it('does not modify its input', () => {
    const schema = t.Literal('a');
    openApiSchema(schema);
    expect(schema.const).toBe('a');
  });

  it('refuses absurdly deep schemas instead of overflowing the stack', () => {
    let deep: object = { type: 'string' };
    for (let i = 0; i < 100; i++) deep = { type: 'array', items: deep };
    expect(() => openApiSchema(deep)).toThrow(/nests more than 64 levels/);
  });
});
