/**
 * Whether `value` survives `JSON.stringify` and `JSON.parse` unchanged (deep-equal): strings, booleans, null,
 * finite numbers other than `-0`, dense arrays and plain objects of such values, no `undefined`. A spec document read
 * from YAML or JSON nearly always is; one that is not (`.inf`, a `!!binary` value) is posted as it is.
 */
export function survivesJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    switch (typeof node) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (!Number.isFinite(node) || Object.is(node, -0)) return false;
        continue;
      case 'object':
        if (node === null) continue;
        if (Array.isArray(node)) {
          for (let i = 0; i < node.length; i++) {
            if (!(i in node)) return false;
            stack.push(node[i]);
          }
        } else {
          if (Object.getPrototypeOf(node) !== Object.prototype) return false;
          for (const key of Object.keys(node)) stack.push((node as Record<string, unknown>)[key]);
        }
        continue;
      default:
        return false;
    }
  }
  return true;
}
