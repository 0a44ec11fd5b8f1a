import { describe, expect, it } from 'vitest';
import type { SparqlVocabulary } from '../../../../server/src/contract/index.js';
import { sparqlToResult } from '../../query/query-api.js';
import { declaredPrefixes, shortenIri, sparqlSuggestions } from './sparql-completion.js';

const ex = 'http://example.com/shop#';
const vocabulary: SparqlVocabulary = {
  prefixes: { ex, rdfs: 'http://www.w3.org/2000/01/rdf-schema#' },
  classes: [{ iri: `${ex}Customer`, label: 'Customer' }, { iri: 'http://other.org/Thing' }],
  properties: [{ iri: `${ex}placedBy` }, { iri: `${ex}has/slash` }],
};

describe('SPARQL prefixes and IRIs', () => {
  it('reads PREFIX declarations, whatever their case and spacing', () => {
    expect(declaredPrefixes('prefix ex:<http://a#>\nPREFIX  foo: <http://b/> SELECT')).toEqual({
      ex: 'http://a#',
      foo: 'http://b/',
    });
  });

  it('shortens IRIs by the longest namespace that leaves a valid local name', () => {
    const prefixes = { ex, shop: 'http://example.com/', e: '' };
    expect(shortenIri(`${ex}Customer`, prefixes)).toBe('ex:Customer');
    expect(shortenIri('http://example.com/shop/customer/1', prefixes)).toBe('http://example.com/shop/customer/1');
    expect(shortenIri('http://example.com/x.', prefixes)).toBe('http://example.com/x.');
    expect(shortenIri('urn:x', prefixes)).toBe('urn:x');
  });

  it('shows result IRIs shortened and literals as they are', () => {
    const result = sparqlToResult(
      {
        head: { vars: ['c', 'n', 'u'] },
        results: {
          bindings: [{ c: { type: 'uri', value: `${ex}Customer` }, n: { type: 'literal', value: `${ex}Customer` } }],
        },
      },
      5,
      { ex },
    );
    expect(result.rows).toEqual([{ c: 'ex:Customer', n: `${ex}Customer`, u: null }]);
  });
});

describe('SPARQL completion', () => {
  it('offers the terms of a namespace after its prefix, declaring the prefix when the query lacks it', () => {
    const found = sparqlSuggestions(vocabulary, 'SELECT * WHERE { ?c a ex:Cu', 'SELECT * WHERE { ?c a ex:Cu');
    expect(found.map((s) => s.label)).toEqual(['Customer', 'placedBy']);
    expect(found[0]).toMatchObject({ kind: 'class', detail: 'Customer · class', declare: { prefix: 'ex', iri: ex } });
    const declared = sparqlSuggestions(vocabulary, '?c a ex:', `PREFIX ex: <${ex}>\n?c a ex:`);
    expect(declared[0].declare).toBeUndefined();
  });

  it('uses the namespace the query declares for a prefix, and offers nothing for an unknown one', () => {
    expect(
      sparqlSuggestions(vocabulary, '?c a o:', 'PREFIX o: <http://other.org/>\n?c a o:').map((s) => s.label),
    ).toEqual(['Thing']);
    expect(sparqlSuggestions(vocabulary, '?c a nope:', '?c a nope:')).toEqual([]);
    expect(sparqlSuggestions(vocabulary, '<http:', '<http:')).toEqual([]);
  });

  it('completes PREFIX declarations', () => {
    expect(sparqlSuggestions(vocabulary, 'PREFIX e', 'PREFIX e')).toContainEqual({
      label: 'ex:',
      kind: 'prefix',
      insertText: `ex: <${ex}>`,
      detail: ex,
    });
  });

  it('offers prefixes, the query variables and keywords elsewhere', () => {
    const found = sparqlSuggestions(vocabulary, 'SELECT ?name WHERE { ', 'SELECT ?name WHERE { ?c ex:name ?name }');
    expect(found.filter((s) => s.kind === 'prefix').map((s) => s.label)).toEqual(['ex:', 'rdfs:']);
    expect(found.filter((s) => s.kind === 'variable').map((s) => s.label)).toEqual(['?name', '?c']);
    expect(found.map((s) => s.label)).toEqual(expect.arrayContaining(['OPTIONAL', 'FILTER', 'COUNT']));
  });
});
