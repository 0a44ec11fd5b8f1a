/**
 * Whether `value` holds an object or array nested more than `limit` levels below it (the value itself is level 0).
 * Walked without recursion, and stops at the first node past the limit: it is the check that keeps a document
 * too deep for Spectral's recursive rules away from them.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}
