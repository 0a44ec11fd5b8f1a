import type { Query } from 'sparqljs';

interface Node {
  type?: string;
  operator?: string;
  args?: unknown[];
  termType?: string;
  value?: string;
  language?: string;
  datatype?: { value: string };
}

const xsdString = 'http://www.w3.org/2001/XMLSchema#string';
const hasScheme = (text: string) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text);

/** `text` resolved against `base` (RFC 3986), or undefined when it cannot be. */
function resolve(text: string, base: string): string | undefined {
  try {
    return new URL(text, base).href;
  } catch {
    return undefined;
  }
}

/**
 * Resolves the relative IRI of each `IRI("…")` and `URI("…")` of a constant string against the query's BASE
 * (§17.4.2.8): the parser resolves relative IRIs written as <…> but leaves a string for the function to resolve.
 * A string computed per row is taken as written (the generated SQL knows no base).
 */
export function resolveRelativeIriCalls(query: Query): Query {
  const base = (query as { base?: string }).base;
  if (!base) return query;
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach(visit);
    const node = value as Node;
    if (node.type === 'operation' && (node.operator === 'iri' || node.operator === 'uri')) {
      const arg = node.args?.[0] as Node | undefined;
      const plain = arg?.termType === 'Literal' && !arg.language && arg.datatype?.value === xsdString;
      const resolved = plain && !hasScheme(arg.value!) ? resolve(arg.value!, base) : undefined;
      if (resolved !== undefined) node.args![0] = { ...arg, value: resolved };
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(query);
  return query;
}
