import { isData } from './document-keys.js';

type Json = Record<string, unknown>;
const isContainer = (value: unknown): value is Json | unknown[] => value !== null && typeof value === 'object';

/** What Ajv reads as schema identifiers wherever it finds them. */
const identifierKeys = new Set(['$id', '$anchor', '$dynamicAnchor']);

/**
 * Whether any object of `value` has an identifier key. A document without one registers with Ajv without fail (it
 * has nothing to collide), so the loader skips the registration check then.
 */
export function containsIdentifier(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isContainer(node)) continue;
    if (!Array.isArray(node) && Object.keys(node).some((k) => identifierKeys.has(k))) return true;
    // One push per child: a spread of a very long array would overflow the call stack.
    for (const child of Object.values(node)) stack.push(child);
  }
  return false;
}

/** A deep copy of `value` without identifier keys. Depth is bounded by the spec loader's limits. */
function withoutIdentifiers(value: unknown): unknown {
  if (!isContainer(value)) return value;
  if (Array.isArray(value)) return value.map(withoutIdentifiers);
  const copy: Json = {};
  for (const [key, child] of Object.entries(value)) if (!identifierKeys.has(key)) copy[key] = withoutIdentifiers(child);
  return copy;
}

/**
 * The document request validation registers with Ajv. Ajv collects `$id`/`$anchor` from every
 * object of a registered document, data included, so two examples carrying the same `"$id"` value
 * (as Box's published spec does) made the whole spec fail with "resolves to more than one schema".
 * Returns `document` itself when no example, default or extension holds such a key (the usual case),
 * else a copy in which only those data values lose them; schemas and JSON pointers are unchanged.
 */
export function validationDocument(document: Json): Json {
  const found: string[][] = [];
  const stack: Array<{ node: unknown; path: string[] }> = [{ node: document, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (!isContainer(node)) continue;
    for (const [key, child] of Object.entries(node)) {
      if (!isContainer(child)) continue;
      if (!Array.isArray(node) && isData(key, path[path.length - 1], path.length === 0)) {
        if (containsIdentifier(child)) found.push([...path, key]);
      } else {
        stack.push({ node: child, path: [...path, key] });
      }
    }
  }
  if (found.length === 0) return document;
  const root = { ...document };
  for (const path of found) {
    let target: Json | unknown[] = root;
    for (const key of path.slice(0, -1)) {
      const child = (target as Json)[key] as Json | unknown[];
      const copy = Array.isArray(child) ? [...child] : { ...child };
      (target as Json)[key] = copy;
      target = copy;
    }
    const last = path[path.length - 1];
    (target as Json)[last] = withoutIdentifiers((target as Json)[last]);
  }
  return root;
}
