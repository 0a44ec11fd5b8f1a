/** JSON pointers and internal `$ref`s (RFC 6901 in a URI fragment). */

/** Escapes one reference token: `~` -> `~0`, `/` -> `~1`, then URI-encodes it for use in a fragment. */
export function escapeToken(token: string): string {
  return encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1'));
}

function unescapeToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // A malformed percent-escape is kept literally: the lookup below then simply fails.
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Builds the fragment `#/a/b` from tokens. */
export function pointerOf(tokens: readonly string[]): string {
  return '#' + tokens.map((t) => '/' + escapeToken(t)).join('');
}

/** Looks up an internal reference (`#/a/b`) in `document`; `undefined` when it does not resolve. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const body = ref.slice(1);
  if (body === '') return document;
  if (!body.startsWith('/')) return undefined;
  let node: unknown = document;
  for (const raw of body.slice(1).split('/')) {
    const token = unescapeToken(raw);
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** A node reached through a chain of `$ref`s, with the pointer it was found at. */
export interface Dereferenced {
  value: unknown;
  pointer: string;
}

/**
 * Follows `$ref` objects from `value` (found at `pointer`) until a non-reference; at most `maxHops`
 * hops, so reference cycles end with an error instead of a hang.
 */
export function dereference(document: unknown, value: unknown, pointer: string, maxHops = 64): Dereferenced {
  let current = value;
  let at = pointer;
  for (let hop = 0; hop <= maxHops; hop++) {
    const ref = refOf(current);
    if (ref === undefined) return { value: current, pointer: at };
    const target = resolvePointer(document, ref);
    if (target === undefined) throw new Error(`$ref ${ref} does not resolve`);
    current = target;
    at = ref;
  }
  throw new Error(`$ref chain at ${pointer} is longer than ${maxHops} hops (cycle?)`);
}

/** The `$ref` string of a reference object, else `undefined`. */
export function refOf(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const ref = (value as Record<string, unknown>).$ref;
  return typeof ref === 'string' ? ref : undefined;
}
