import { isObject } from '../../core/json.js';
import { resolvePointer } from '../model/json-pointer.js';
import { valueBounds } from './value-generators.js';

/**
 * Keywords neither the compiled generator nor Ajv acts on (`x-` extensions too, but `x-faker`, which the generator
 * hands to json-schema-faker).
 */
const annotations = new Set([
  'description',
  'title',
  '$comment',
  'readOnly',
  'writeOnly',
  'deprecated',
  'example',
  'examples',
  'default',
  'xml',
  'externalDocs',
]);
/** String formats whose generator (value-generators.ts) makes only values Ajv's check of the format accepts. */
const soundStringFormats = new Set(['date-time', 'date', 'time', 'email', 'uuid', 'uri', 'hostname', 'ipv4']);
/** Number formats Ajv accepts any number of the type for (request-validator.ts's OpenAPI formats). */
const freeNumberFormats = new Set(['int64', 'float', 'double']);
const int32 = 2 ** 31;
/** Bounds far enough inside doubles that the generator's arithmetic on them stays exact and finite. */
const safeBound = 2 ** 50;

type Schema = Record<string, unknown>;

/** Whether every keyword of `schema` is an annotation or one of `allowed`. */
const onlyKeywords = (schema: Schema, allowed: readonly string[]): boolean =>
  Object.keys(schema).every(
    (key) => allowed.includes(key) || annotations.has(key) || (key.startsWith('x-') && key !== 'x-faker'),
  );

const optionalNumber = (value: unknown): value is number | undefined =>
  value === undefined || (typeof value === 'number' && Math.abs(value) <= safeBound);

/** Whether `value` is of the JSON Schema type `type` as Ajv tells it. */
function ofType(value: unknown, type: unknown): boolean {
  switch (type) {
    case undefined:
      return true;
    case 'string':
    case 'boolean':
      return typeof value === type;
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    default:
      return false;
  }
}

/** A string schema's generator: lengths drawn between the bounds, or a format's generator. */
function soundString(schema: Schema, plausibleName: boolean): boolean {
  if (schema.format !== undefined)
    return onlyKeywords(schema, ['type', 'format']) && soundStringFormats.has(schema.format as string);
  const { minLength = 0, maxLength } = schema;
  return (
    onlyKeywords(schema, ['type', 'minLength', 'maxLength']) &&
    typeof minLength === 'number' &&
    minLength <= valueBounds.maxLength &&
    (maxLength === undefined || (typeof maxLength === 'number' && minLength <= maxLength)) &&
    (minLength === 0 || !plausibleName)
  );
}

/** A number schema's generator: a value drawn between the bounds (value-generators.ts numberBounds). */
function soundNumber(schema: Schema): boolean {
  const { minimum, maximum, format } = schema;
  if (!onlyKeywords(schema, ['type', 'minimum', 'maximum', 'format'])) return false;
  if (!optionalNumber(minimum) || !optionalNumber(maximum)) return false;
  const within32 = [minimum, maximum].every((bound) => bound === undefined || (bound >= -int32 && bound < int32));
  if (format !== undefined && !freeNumberFormats.has(format as string) && !(format === 'int32' && within32))
    return false;
  if (minimum === undefined || maximum === undefined) return true;
  return schema.type === 'integer' ? Math.ceil(minimum) <= Math.floor(maximum) : minimum <= maximum;
}

/**
 * Whether the compiled generator (compiled-generator.ts) can only make values valid against the schema at `pointer`
 * of `document`, so that checking each one with Ajv proves nothing. The proof covers what each generator does with
 * the keywords it is given, and only these (anything else is not proven, and checked as before):
 * - `type: object` with `properties`, `required` (each named in `properties`), `additionalProperties`: the generator
 *   sets every required property and some of the others, and never an additional one without `minProperties`;
 * - `type: array` with one `items` schema and `minItems` at most `maxItems` (and at most the generator's bound):
 *   the count is drawn between them (no `uniqueItems`, whose retries may stop short);
 * - `type: string` with `minLength` at most `maxLength` (none where a property name picks a plausible value, whose
 *   characters are faker's), or one of the formats of `soundStringFormats` without lengths (no `pattern`);
 * - `type: number` or `integer` with `minimum` at most `maximum` (an integer between them for `integer`), within
 *   2^50, a format Ajv accepts any number for (int32 within its range) (no `multipleOf`, whose decimal steps Ajv's
 *   division rejects, nor exclusive bounds);
 * - `type: boolean`; `enum` or `const` whose values are of the schema's `type`; the empty schema (any value);
 * - a `$ref` without siblings but annotations, to a schema that is not its own ancestor (a recursion is cut by the
 *   expansion, and a cut may leave an empty schema where the validator needs more).
 * `plausible(name)` says whether a property of that name gets a plausible value.
 */
export function generatorIsSound(document: unknown, pointer: string, plausible: (name: string) => boolean): boolean {
  const onPath = new Set<string>();

  const sound = (schema: unknown, name: string): boolean => {
    if (schema === true) return true;
    if (!isObject(schema)) return false;
    if (typeof schema.$ref === 'string') {
      const ref = schema.$ref;
      if (onPath.has(ref) || !onlyKeywords(schema, ['$ref'])) return false;
      onPath.add(ref);
      const target = resolvePointer(document, ref);
      const result = target !== undefined && sound(target, name);
      onPath.delete(ref);
      return result;
    }
    if (schema.enum !== undefined || schema.const !== undefined) {
      const values = schema.enum ?? [schema.const];
      return (
        onlyKeywords(schema, ['enum', 'const', 'type']) &&
        Array.isArray(values) &&
        values.length > 0 &&
        (schema.enum === undefined || schema.const === undefined) &&
        values.every((value) => ofType(value, schema.type))
      );
    }
    switch (schema.type) {
      case undefined:
        return onlyKeywords(schema, []);
      case 'boolean':
        return onlyKeywords(schema, ['type']);
      case 'string':
        return soundString(schema, plausible(name));
      case 'number':
      case 'integer':
        return soundNumber(schema);
      case 'array':
        return soundArray(schema);
      case 'object':
        return soundObject(schema);
      default:
        return false;
    }
  };

  const soundArray = (schema: Schema): boolean => {
    const { minItems = 0, maxItems, items } = schema;
    return (
      onlyKeywords(schema, ['type', 'items', 'minItems', 'maxItems']) &&
      typeof minItems === 'number' &&
      minItems <= valueBounds.maxItems &&
      (maxItems === undefined || (typeof maxItems === 'number' && minItems <= maxItems)) &&
      (items === undefined || (isObject(items) && sound(items, '')))
    );
  };

  const soundObject = (schema: Schema): boolean => {
    const properties = schema.properties ?? {};
    const required = schema.required ?? [];
    if (!onlyKeywords(schema, ['type', 'properties', 'required', 'additionalProperties'])) return false;
    if (!isObject(properties) || !Array.isArray(required)) return false;
    // `__proto__` set on a plain object is its prototype, not a property.
    if (Object.hasOwn(properties, '__proto__')) return false;
    if (!required.every((key) => typeof key === 'string' && Object.hasOwn(properties, key))) return false;
    return Object.entries(properties).every(([key, property]) => sound(property, key));
  };

  return sound(resolvePointer(document, pointer), '');
}
