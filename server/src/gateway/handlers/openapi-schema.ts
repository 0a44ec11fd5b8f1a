import { isObject } from '../../core/json.js';
type Json = Record<string, unknown>;

/** Keywords whose value is one schema. */
const schemaKeywords = new Set([
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'additionalItems',
  'if',
  'then',
  'else',
]);
/** Keywords whose value is a list of schemas. */
const schemaListKeywords = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to schemas. */
const schemaMapKeywords = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

function convert(schema: unknown, depth: number): unknown {
  if (!isObject(schema)) return schema;
  if (depth > 64) throw new Error('schema nests more than 64 levels');
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'const') out.enum = [value];
    else if (schemaKeywords.has(key))
      out[key] = Array.isArray(value) ? value.map((v) => convert(v, depth + 1)) : convert(value, depth + 1);
    else if (schemaListKeywords.has(key) && Array.isArray(value)) out[key] = value.map((v) => convert(v, depth + 1));
    else if (schemaMapKeywords.has(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, depth + 1)]));
    else out[key] = value;
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const members = out[keyword];
    if (!Array.isArray(members) || !members.some((m) => isObject(m) && m.type === 'null')) continue;
    const rest = members.filter((m) => !(isObject(m) && m.type === 'null'));
    delete out[keyword];
    if (rest.length === 1 && isObject(rest[0])) Object.assign(out, rest[0]);
    else if (rest.length > 0) out[keyword] = rest;
    out.nullable = true;
  }
  return out;
}

/**
 * A handler's TypeBox schema as an OpenAPI 3.0 schema object for the merged document: plain JSON
 * (TypeBox's symbol keys dropped), `const` as a one-value `enum`, and a union with `null` as
 * `nullable`. The input is not modified.
 */
export function openApiSchema(schema: object): Json {
  return convert(JSON.parse(JSON.stringify(schema)) as unknown, 0) as Json;
}
