import { isObject } from '../../core/json.js';
import { resolvePointer } from '../model/json-pointer.js';

/** How often one schema may recur inside itself (a category's subcategories' subcategories) before it is cut. */
export const recursionLimit = 2;
/** Nodes one expanded schema may have: a spec that shares schemas widely expands beyond it and is not expanded. */
export const expansionNodeLimit = 20_000;

/** Keywords whose value is a schema, a list of schemas or a map of schemas, walked when expanding. */
const schemaKeys = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else']);
const schemaListKeys = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const schemaMapKeys = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Annotations a `$ref`'s sibling may carry without changing the schema it points at (json-schema-faker's list). */
const annotations = new Set(['description', 'title', '$comment', 'readOnly', 'writeOnly', 'deprecated']);

/** A schema cut because it recurs too deep: its parent drops it where the parent's rules allow. */
const cut = Symbol('cut');
type Expanded = Record<string, unknown> | boolean | typeof cut;

class TooLarge extends Error {}

/**
 * The schema at `pointer` of `document` with every internal `$ref` replaced by what it points at, so that a
 * generator sees one tree: a chain of distinct schemas is expanded however deep it goes, and only a schema that
 * recurs inside itself more than {@link recursionLimit} times is cut. A cut optional property, a cut array item
 * (then `maxItems: 0`) and a cut `oneOf`/`anyOf` alternative are left out; a cut that nothing can leave out (a
 * required recursion, which no finite value satisfies) stays an empty schema for the validator to judge.
 * `undefined` when the pointer does not resolve, a `$ref` leaves the document, or the tree would pass
 * {@link expansionNodeLimit} nodes.
 */
export function expandedSchema(document: unknown, pointer: string): Record<string, unknown> | boolean | undefined {
  let nodes = 0;
  const onPath = new Map<string, number>();

  const expand = (node: unknown): Expanded => {
    if (++nodes > expansionNodeLimit) throw new TooLarge();
    if (typeof node === 'boolean') return node;
    if (!isObject(node)) return {};
    if (typeof node.$ref === 'string') return expandRef(node.$ref, node);
    return expandKeywords(Object.entries(node), node);
  };

  /** The keywords of `source` with their schemas expanded. */
  const expandKeywords = (entries: [string, unknown][], source: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    let itemsCut = false;
    for (const [key, value] of entries) {
      const expanded = expandKeyword(key, value, source);
      itemsCut ||= key === 'items' && expanded === cut;
      out[key] = expanded === cut ? {} : expanded;
    }
    // An array whose items recur too deep is generated empty when it may be.
    if (itemsCut && !(typeof source.minItems === 'number' && source.minItems > 0)) out.maxItems = 0;
    return out;
  };

  const expandRef = (ref: string, node: Record<string, unknown>): Expanded => {
    const depth = onPath.get(ref) ?? 0;
    if (depth > recursionLimit) return cut;
    const target = resolvePointer(document, ref);
    if (target === undefined) throw new TooLarge();
    onPath.set(ref, depth + 1);
    try {
      const expanded = expand(target);
      const siblings = Object.entries(node).filter(([key]) => key !== '$ref' && !annotations.has(key));
      if (siblings.length === 0 || expanded === cut || typeof expanded === 'boolean') return expanded;
      return { ...expanded, ...expandKeywords(siblings, node) };
    } finally {
      onPath.set(ref, depth);
    }
  };

  const expandKeyword = (key: string, value: unknown, parent: Record<string, unknown>): unknown => {
    if (schemaKeys.has(key)) return expand(value);
    if (schemaListKeys.has(key) && Array.isArray(value)) {
      const expanded = value.map(expand);
      const kept = expanded.filter((s) => s !== cut);
      if (key === 'allOf' || kept.length === 0) return expanded.map((s) => (s === cut ? {} : s));
      return kept;
    }
    if (schemaMapKeys.has(key) && isObject(value)) {
      const required = Array.isArray(parent.required) ? parent.required : [];
      const out: Record<string, unknown> = {};
      for (const [name, schema] of Object.entries(value)) {
        const expanded = expand(schema);
        if (expanded !== cut) out[name] = expanded;
        else if (key !== 'properties' || required.includes(name)) out[name] = {};
      }
      return out;
    }
    return value;
  };

  try {
    const root = expand({ $ref: pointer });
    return root === cut ? undefined : root;
  } catch (error) {
    if (error instanceof TooLarge) return undefined;
    throw error;
  }
}
