import type { SparqlVocabulary } from '../../../../server/src/contract/index.js';
import { sparqlFunctions, sparqlKeywords } from './sparql-language.js';

export interface SparqlSuggestion {
  label: string;
  kind: 'prefix' | 'class' | 'property' | 'variable' | 'keyword';
  /** What is inserted, when it differs from the label. */
  insertText?: string;
  detail?: string;
  /** A PREFIX declaration the query needs for this suggestion: added at the top when it is missing. */
  declare?: { prefix: string; iri: string };
}

/** `PREFIX name: <iri>` declarations of a query, name -> namespace. */
export function declaredPrefixes(query: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of query.matchAll(/\bPREFIX\s+([A-Za-z][\w.-]*)?:\s*<([^>\s]*)>/gi))
    found[match[1] ?? ''] = match[2];
  return found;
}

/** The local part after a namespace, when it can stand in a prefixed name as it is. */
const localName = (iri: string, namespace: string): string | undefined => {
  const local = iri.slice(namespace.length);
  return iri.startsWith(namespace) && /^([A-Za-z0-9_]([\w.-]*[\w-])?)?$/.test(local) ? local : undefined;
};

/** An IRI as `prefix:local` under the longest namespace that gives a valid local name; else unchanged. */
export function shortenIri(iri: string, prefixes: Record<string, string>): string {
  let best: [string, string] | undefined;
  for (const [prefix, namespace] of Object.entries(prefixes)) {
    if (!namespace || prefix === '') continue;
    const local = localName(iri, namespace);
    if (local !== undefined && (!best || namespace.length > prefixes[best[0]].length)) best = [prefix, local];
  }
  return best ? `${best[0]}:${best[1]}` : iri;
}

/**
 * Completions at the cursor of a SPARQL query. `before` is the line up to the cursor. After
 * `prefix:` the classes and properties of that namespace; after `PREFIX` the known declarations;
 * elsewhere the prefixes (declaring the chosen one when the query lacks it), the query's variables
 * and the keywords.
 */
export function sparqlSuggestions(vocabulary: SparqlVocabulary, before: string, query: string): SparqlSuggestion[] {
  const declared = declaredPrefixes(query);
  const prefixes = { ...vocabulary.prefixes, ...declared };
  const known = Object.entries(prefixes).filter(([name]) => name !== '');
  if (/\bPREFIX\s+[\w.-]*$/i.test(before)) {
    return known.map(([name, iri]) => ({
      label: `${name}:`,
      kind: 'prefix',
      insertText: `${name}: <${iri}>`,
      detail: iri,
    }));
  }
  const qualified = /(?:^|[^\w.:-])([A-Za-z][\w.-]*)?:([\w.-]*)$/.exec(before);
  if (qualified) {
    const name = qualified[1] ?? '';
    const namespace = prefixes[name];
    if (!namespace) return [];
    const declare = declared[name] === undefined ? { prefix: name, iri: namespace } : undefined;
    const terms = (list: SparqlVocabulary['classes'], kind: 'class' | 'property') =>
      list.flatMap((term): SparqlSuggestion[] => {
        const local = localName(term.iri, namespace);
        return local
          ? [
              {
                label: local,
                kind,
                detail: term.label ? `${term.label} · ${kind}` : kind,
                ...(declare ? { declare } : {}),
              },
            ]
          : [];
      });
    return [...terms(vocabulary.classes, 'class'), ...terms(vocabulary.properties, 'property')];
  }
  const variables = [...new Set([...query.matchAll(/[?$]([A-Za-z0-9_]+)/g)].map((m) => `?${m[1]}`))];
  return [
    ...known.map(([name, iri]): SparqlSuggestion => ({
      label: `${name}:`,
      kind: 'prefix',
      detail: iri,
      ...(declared[name] === undefined ? { declare: { prefix: name, iri } } : {}),
    })),
    ...variables.map((v): SparqlSuggestion => ({ label: v, kind: 'variable' })),
    ...[...sparqlKeywords.filter((k) => k !== 'a'), ...sparqlFunctions].map((k): SparqlSuggestion => ({
      label: k,
      kind: 'keyword',
    })),
  ];
}
