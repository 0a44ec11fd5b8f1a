import { describe, expect, it } from 'vitest';
import { createAjv } from '../request-validator.js';
import { DynamicExamples } from './dynamic-example.js';
import { generatorIsSound } from './generator-soundness.js';

/** A 3.0 document whose `components.schemas` are `schemas`. */
const documentOf = (schemas: Record<string, unknown>) => ({
  openapi: '3.0.3',
  info: { title: 'soundness', version: '1' },
  paths: {},
  components: { schemas },
});
const pointer = (name: string) => `#/components/schemas/${name}`;
const plausible = (name: string) => name === 'email' || name === 'title';
const sound = (schema: unknown, more: Record<string, unknown> = {}) =>
  generatorIsSound(documentOf({ Subject: schema, ...more }), pointer('Subject'), plausible);

const item = {
  type: 'object',
  required: ['id', 'title', 'added', 'state'],
  properties: {
    id: { type: 'integer', minimum: 1, maximum: 1.5, format: 'int32', description: 'the one' },
    title: { type: 'string', maxLength: 12 },
    email: { type: 'string' },
    code: { type: 'string', minLength: 3, maxLength: 3 },
    price: { type: 'number', minimum: 0.5, maximum: 0.5, format: 'double' },
    count: { type: 'integer', maximum: 0.5 },
    big: { type: 'integer', minimum: 2 ** 40, format: 'int64' },
    added: { type: 'string', format: 'date-time' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'time' },
    id2: { type: 'string', format: 'uuid' },
    mail: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    host: { type: 'string', format: 'hostname' },
    ip: { type: 'string', format: 'ipv4' },
    state: { type: 'string', enum: ['open', 'shut'] },
    level: { type: 'integer', enum: [1, 2.0] },
    fixed: { const: { nested: [1] } },
    flag: { type: 'boolean', 'x-note': 'extension' },
    anything: {},
    tags: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 4 }, minItems: 2, maxItems: 2 },
    loose: { type: 'array', minItems: 20 },
  },
  additionalProperties: false,
};

describe('generatorIsSound', () => {
  it('proves the keywords it covers, through $refs that do not recur', () => {
    expect(sound(item)).toBe(true);
    const list = { type: 'object', required: ['items'], properties: { items: { type: 'array', items: {} } } };
    list.properties.items.items = { $ref: pointer('Item'), description: 'an annotation beside the $ref' };
    expect(sound(list, { Item: item })).toBe(true);
    expect(sound(true)).toBe(true);
  });

  it('draws only valid values from what it proves, unchecked (500 draws against Ajv)', () => {
    const document = documentOf({ Item: item, List: { type: 'array', items: { $ref: pointer('Item') } } });
    const validate = createAjv('3.0.3', false)
      .addSchema(document, 'doc')
      .getSchema(`doc${pointer('List')}`)!;
    // Proven, so DynamicExamples does not check these values itself: this test does.
    expect(generatorIsSound(document, pointer('List'), plausible)).toBe(true);
    const examples = new DynamicExamples(document, '3.0.3');
    for (let seed = 0; seed < 500; seed++) {
      const value = examples.generate(pointer('List'), seed % 2 === 0 ? seed : undefined, 'List');
      expect([seed, validate(value), validate.errors ?? null]).toEqual([seed, true, null]);
    }
  });

  it('proves nothing of the keywords it does not cover, nor of schemas a generator may break', () => {
    const cases: Record<string, unknown> = {
      pattern: { type: 'string', pattern: '^a$' },
      'unlisted format': { type: 'string', format: 'ipv6' },
      'format with a length': { type: 'string', format: 'date', maxLength: 5 },
      'lengths crossed': { type: 'string', minLength: 5, maxLength: 2 },
      'minLength over the bound': { type: 'string', minLength: 300 },
      multipleOf: { type: 'number', multipleOf: 0.1 },
      exclusiveMinimum: { type: 'number', minimum: 0, exclusiveMinimum: true },
      'no integer between': { type: 'integer', minimum: 1.2, maximum: 1.8 },
      'bounds crossed': { type: 'number', minimum: 2, maximum: 1 },
      'unsafe bound': { type: 'number', maximum: 1e300 },
      'int32 out of range': { type: 'integer', format: 'int32', minimum: 2 ** 40 },
      uniqueItems: { type: 'array', items: { type: 'boolean' }, minItems: 2, uniqueItems: true },
      'items crossed': { type: 'array', minItems: 3, maxItems: 1 },
      'minItems over the bound': { type: 'array', minItems: 21 },
      tuple: { type: 'array', items: [{ type: 'string' }] },
      minProperties: { type: 'object', minProperties: 1 },
      'required, not a property': { type: 'object', required: ['a'], additionalProperties: false },
      'a __proto__ property': JSON.parse('{"type":"object","required":["__proto__"],"properties":{"__proto__":{}}}'),
      'enum of another type': { type: 'string', enum: ['a', 1] },
      'enum of objects': { type: 'object', enum: [{}] },
      'empty enum': { enum: [] },
      'type list': { type: ['string', 'null'] },
      nullable: { type: 'string', nullable: true },
      'no type, a constraint': { minLength: 2 },
      oneOf: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      allOf: { allOf: [{ type: 'string' }] },
      not: { not: { type: 'string' } },
      'x-faker': { type: 'string', 'x-faker': 'person.firstName' },
      $id: { $id: 'urn:x', type: 'string' },
      'a plausible name with a minLength': {
        type: 'object',
        properties: { email: { type: 'string', minLength: 3 } },
      },
      'a $ref with a constraint beside it': { $ref: pointer('Text'), maxLength: 2 },
      'a $ref out of the document': { $ref: 'other.yaml#/Text' },
      recursion: { type: 'object', properties: { child: { $ref: pointer('Subject') } } },
      'deep inside': { type: 'object', properties: { a: { type: 'array', items: { type: 'string', pattern: 'x' } } } },
    };
    for (const [name, schema] of Object.entries(cases))
      expect([name, sound(schema, { Text: { type: 'string' } })]).toEqual([name, false]);
  });

  it('still refuses a schema nothing satisfies, whose values are checked', () => {
    const examples = new DynamicExamples(documentOf({ Odd: { type: 'integer', minimum: 1.2, maximum: 1.8 } }), '3.0.3');
    expect(() => examples.generate(pointer('Odd'), 1, 'Odd')).toThrow(
      expect.objectContaining({ code: 'DYNAMIC_EXAMPLE_FAILED' }),
    );
  });
});
