/** Keys of a bundled spec document with a meaning of their own: where bundled files live, and which values are data. */

/** Where bundled external documents live in the bundled spec: `#/x-bundled/<path relative to the specs dir>`. */
export const bundledKey = 'x-bundled';

/** Keywords whose values are data (example payloads, defaults, extensions), not schemas. */
const dataKeywords = new Set(['example', 'examples', 'default']);
/** Keywords whose values map names to schemas: a property called `example` there is a schema. */
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * True when the value under `key` (of an object whose own key is `parentKey`) is data rather than part of the
 * description: an example, a default or an extension (except the bundled files at the root).
 */
export function isData(key: string, parentKey: string | undefined, atRoot: boolean): boolean {
  if (parentKey !== undefined && schemaMaps.has(parentKey)) return false;
  if (key.startsWith('x-')) return !(atRoot && key === bundledKey);
  return dataKeywords.has(key);
}
