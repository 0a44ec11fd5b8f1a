import { describe, expect, it, vi } from 'vitest';
import { createAjv } from '../request-validator.js';
import { compileGenerator, mergeSchemas, type CompileContext } from './compiled-generator.js';
import { seededRandom } from './value-generators.js';

const ajv = createAjv('3.1.0', false);
const context = (fallback: CompileContext['fallback'] = () => () => 'fallback'): CompileContext => ({
  fallback,
  check: (schema) => ajv.compile(schema as object) as (value: unknown) => boolean,
  plausible: (name) => (name === 'email' ? () => 'plausible@example.com' : undefined),
});

/** Values of `schema` for seeds 1..count, each checked by Ajv; returns them. */
function validValues(schema: Record<string, unknown>, count = 100): unknown[] {
  const validate = ajv.compile(schema);
  const generate = compileGenerator(schema, context());
  const values = Array.from({ length: count }, (_, seed) => generate(seededRandom(seed + 1)));
  const invalid = values.filter((value) => !validate(value));
  expect(invalid.slice(0, 3)).toEqual([]);
  return values;
}

const formats = ['date-time', 'date', 'time', 'email', 'uuid', 'uri', 'hostname', 'ipv4', 'ipv6', 'byte', 'binary'];

describe('compileGenerator', () => {
  it('gives valid strings for every covered format, pattern and length bound', () => {
    validValues({
      type: 'object',
      required: [...formats, 'sku', 'code', 'short'],
      properties: {
        ...Object.fromEntries(formats.map((format) => [format, { type: 'string', format }])),
        sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
        code: { type: 'string', pattern: '^[a-f0-9]+$', minLength: 6, maxLength: 8 },
        short: { type: 'string', minLength: 2, maxLength: 3 },
      },
    });
  });

  it('keeps numbers inside minimum, maximum, exclusive bounds, multipleOf and int32', () => {
    validValues({
      type: 'object',
      required: ['a', 'b', 'c', 'd', 'e'],
      properties: {
        a: { type: 'integer', minimum: 5, maximum: 7 },
        b: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        c: { type: 'number', multipleOf: 0.25, minimum: 1, maximum: 2 },
        d: { type: 'integer', format: 'int32', maximum: -5 },
        e: { type: 'integer', multipleOf: 7 },
      },
    });
  });

  it('fills arrays, tuples and objects within their counts, unique when asked', () => {
    const values = validValues({
      type: 'object',
      required: ['tags', 'pair', 'map'],
      additionalProperties: false,
      properties: {
        tags: { type: 'array', items: { enum: ['a', 'b', 'c', 'd'] }, minItems: 3, maxItems: 4, uniqueItems: true },
        pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'boolean' }], items: false, minItems: 2 },
        map: { type: 'object', additionalProperties: { type: 'integer' }, minProperties: 2, maxProperties: 3 },
        optional: { type: ['string', 'null'] },
      },
    });
    // Optional properties come and go.
    const withOptional = values.filter((value) => Object.hasOwn(value as object, 'optional')).length;
    expect(withOptional).toBeGreaterThan(20);
    expect(withOptional).toBeLessThan(80);
  });

  it('merges allOf and picks a oneOf branch that the other branches reject', () => {
    const values = validValues({
      allOf: [
        { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
        { required: ['kind'], properties: { id: { maximum: 3 } } },
      ],
      properties: {
        kind: {
          oneOf: [{ type: 'integer' }, { type: 'number', multipleOf: 0.5 }, { const: 'cat' }],
        },
      },
    });
    expect(new Set(values.map((value) => typeof (value as { kind: unknown }).kind)).size).toBe(2);
    expect(mergeSchemas({ type: ['string', 'null'], minLength: 2 }, { type: 'string', minLength: 1 })).toEqual({
      type: 'string',
      minLength: 2,
    });
  });

  it('repeats a seed exactly and gives a fresh value per draw otherwise', () => {
    const schema = {
      type: 'object',
      required: ['id', 'at'],
      properties: { id: { type: 'string', format: 'uuid' }, at: { type: 'string', format: 'date-time' } },
    };
    const generate = compileGenerator(schema, context());
    expect(generate(seededRandom(42))).toEqual(generate(seededRandom(42)));
    const unseeded = new Set(Array.from({ length: 40 }, () => JSON.stringify(generate(Math.random))));
    expect(unseeded.size).toBe(40);
  });

  it('uses a plausible value for a free string named like one, never for a formatted one', () => {
    const generate = compileGenerator(
      {
        type: 'object',
        required: ['email', 'other'],
        properties: { email: { type: 'string' }, other: { type: 'string', format: 'email' } },
      },
      context(),
    );
    const value = generate(seededRandom(1)) as { email: string; other: string };
    expect(value.email).toBe('plausible@example.com');
    expect(value.other).not.toBe('plausible@example.com');
  });

  it('hands only the sub-schemas it does not cover to the fallback, compiled once', () => {
    const fallback = vi.fn(() => () => 'from fallback');
    const generate = compileGenerator(
      { type: 'object', required: ['a', 'b'], properties: { a: { not: { type: 'integer' } }, b: { type: 'integer' } } },
      context(fallback),
    );
    expect(fallback).toHaveBeenCalledTimes(1);
    expect(fallback).toHaveBeenCalledWith({ not: { type: 'integer' } });
    const value = generate(seededRandom(3)) as { a: unknown; b: unknown };
    expect(value.a).toBe('from fallback');
    expect(typeof value.b).toBe('number');
    generate(seededRandom(4));
    expect(fallback).toHaveBeenCalledTimes(1);
  });
});
