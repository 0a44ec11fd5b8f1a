import { resolvePointer } from './model/json-pointer.js';

/** Nesting allowed to the free-form parts of a body: an undeclared property, a schema without properties. */
export const freeFormDepth = 32;

/** The deepest a body may nest at all: the nesting bound of spec documents, which a recursive schema reaches. */
export const maxBodyDepth = 1000;

/**
 * How deep `value` nests (a scalar 0, `{}` or `[]` 1, `{"a":[1]}` 2), counted without recursion so a
 * hostile body cannot overflow the stack; counting stops once `limit` is passed.
 */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}

const sameLevel = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'];
const nestedMaps = ['properties', 'patternProperties', 'dependentSchemas'];
const nestedOne = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'additionalItems',
];

/**
 * The deepest nesting a request body schema declares, following internal `$ref`s into `document`: an
 * object or array level for each `properties`/`items` step. A schema that refers to itself declares
 * any depth, counted as {@link maxBodyDepth}. Each `$ref`'s depth is computed once (`known`), so a spec
 * whose references branch and join again costs its size, not the number of its paths.
 */
export function schemaDepth(
  document: unknown,
  schema: unknown,
  seen: readonly string[] = [],
  known = new Map<string, number>(),
): number {
  if (schema === null || typeof schema !== 'object') return 0;
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    // A reference back into the chain that led here is a cycle: any depth. (A reference that reaches a
    // cycle lies on one too, so remembering its depth is sound.)
    if (seen.includes(ref) || seen.length >= maxBodyDepth) return maxBodyDepth;
    let depth = known.get(ref);
    if (depth === undefined) {
      depth = schemaDepth(document, resolvePointer(document, ref), [...seen, ref], known);
      known.set(ref, depth);
    }
    return depth;
  }
  let deepest = 0;
  const nested = (child: unknown) => (deepest = Math.max(deepest, 1 + schemaDepth(document, child, seen, known)));
  for (const key of nestedMaps)
    if (node[key] && typeof node[key] === 'object')
      for (const child of Object.values(node[key] as object)) nested(child);
  for (const key of nestedOne)
    if (node[key] && typeof node[key] === 'object') for (const child of [node[key]].flat()) nested(child);
  if (Array.isArray(node.prefixItems)) for (const child of node.prefixItems) nested(child);
  for (const key of sameLevel)
    for (const child of [node[key]].flat()) deepest = Math.max(deepest, schemaDepth(document, child, seen, known));
  return Math.min(deepest, maxBodyDepth);
}

/** The nesting a body of `schema` may have: what the schema declares, never less than {@link freeFormDepth}. */
export function allowedBodyDepth(document: unknown, schema: unknown): number {
  return Math.max(freeFormDepth, schemaDepth(document, schema));
}
