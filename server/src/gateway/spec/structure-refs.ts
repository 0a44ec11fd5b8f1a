/**
 * The keys the OpenAPI validator (`@seriousme/openapi-schema-validator`) reads as identifiers or references; beside
 * `$ref`, each changes how its reference check resolves.
 */
const identifierWords = new Set(['$id', '$anchor', '$dynamicRef', '$dynamicAnchor', '$schema']);

/** Nesting up to which the recursive check surely keeps within the stack; deeper documents are left to it. */
const maxSureDepth = 500;

type Container = Record<string, unknown>;
const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/**
 * Whether the validator's reference check would pass on `document`, decided without it (it deep-copies the document,
 * builds a JSON pointer for every node and resolves each `$ref` through the copy as it rewrites it: about a fifth of
 * a spec's load), or `undefined` when that is not certain and the check must run. Certain means: no identifier key
 * anywhere; every `$ref` (data included, as the validator reads them) a string `#` or `#/...` without `%` or a second
 * `#`; no object holding a `$ref` inside another (the check's rewriting then changes nothing a path goes through); and
 * each `$ref`'s path, read key by key as the validator reads it (`o[key]`), passing through no `$ref` holder before
 * its end and ending on a defined value. Returns `false` never: a doubt means "run the check" for its message.
 */
export function referencesSurelyResolve(document: Container): true | undefined {
  if ('$ref' in document) return undefined;
  const holders = new Set<Container>();
  const refs: string[] = [];
  // Each node with its depth and whether a `$ref` holder lies above it.
  const stack: Array<{ node: Container; depth: number; underHolder: boolean }> = [
    { node: document, depth: 0, underHolder: false },
  ];
  while (stack.length > 0) {
    const { node, depth, underHolder } = stack.pop()!;
    // The check recurses: deep enough, it overflows the stack and answers that.
    if (depth > maxSureDepth) return undefined;
    let holds = false;
    for (const key in node) {
      if (identifierWords.has(key)) return undefined;
      if (key === '$ref') {
        const ref = node[key];
        if (underHolder || typeof ref !== 'string' || !/^#(?:\/[^#%]*)?$/.test(ref)) return undefined;
        refs.push(ref);
        holds = true;
      }
    }
    if (holds) holders.add(node);
    for (const key in node) {
      const child = node[key];
      if (isContainer(child) && key !== '$ref')
        stack.push({ node: child, depth: depth + 1, underHolder: underHolder || holds });
    }
  }
  for (const ref of refs) if (!resolvesAround(document, ref, holders)) return undefined;
  return true;
}

/** Whether `ref` (`#/a/b`) leads, key by key from `document`, to a defined value without passing a holder. */
function resolvesAround(document: Container, ref: string, holders: ReadonlySet<Container>): boolean {
  if (ref === '#') return true;
  let node: unknown = document;
  const tokens = ref.slice(2).split('/');
  for (const [index, token] of tokens.entries()) {
    if (node === null || node === undefined) return false;
    if (index > 0 && holders.has(node as Container)) return false;
    node = (node as Container)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node !== undefined;
}
