import { isObject } from '../core/json.js';
type Json = Record<string, unknown>;

/**
 * A deep copy of a JSON value in which `replace(key, value)` may substitute an object member: it
 * returns `{value}` for the member's new value, or `undefined` to copy the member as usual.
 * Iterative: specs nest deeper than the call stack allows.
 */
export function copyJson(
  value: unknown,
  replace: (key: string, value: unknown) => { value: unknown } | undefined,
): unknown {
  if (!isObject(value) && !Array.isArray(value)) return value;
  const root: { v?: unknown } = {};
  const stack: Array<{ source: unknown; target: Json | unknown[]; key: string | number }> = [
    { source: value, target: root as Json, key: 'v' },
  ];
  while (stack.length > 0) {
    const { source, target, key } = stack.pop()!;
    let copy: unknown = source;
    if (Array.isArray(source)) {
      const array: unknown[] = new Array(source.length);
      source.forEach((item, i) => stack.push({ source: item, target: array, key: i }));
      copy = array;
    } else if (isObject(source)) {
      const object: Json = {};
      for (const [k, v] of Object.entries(source)) {
        const replaced = replace(k, v);
        if (replaced) object[k] = replaced.value;
        else stack.push({ source: v, target: object, key: k });
      }
      copy = object;
    }
    (target as Record<string | number, unknown>)[key] = copy;
  }
  return root.v;
}
