import sparqljs, { type Expression, type SelectQuery } from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { columnComparison, conjuncts } from './column-filters.js';
import type { TermMap } from './r2rml.js';
import type { BoundMap } from './term-sql.js';

const types: Record<string, string> = {
  name: 'VARCHAR',
  age: 'INTEGER',
  price: 'DECIMAL(10,2)',
  score: 'DOUBLE',
  id: 'BIGINT',
};
const maps: Record<string, TermMap> = {
  n: { kind: 'column', column: 'name', termType: 'literal' },
  a: { kind: 'column', column: 'age', termType: 'literal' },
  p: { kind: 'column', column: 'price', termType: 'literal' },
  s: { kind: 'column', column: 'score', termType: 'literal' },
  typed: { kind: 'column', column: 'name', termType: 'literal', datatype: 'http://example.com/code' },
  tagged: { kind: 'column', column: 'name', termType: 'literal', language: 'en' },
  x: { kind: 'template', termType: 'iri', parts: [{ text: 'http://example.com/p/' }, { column: 'id' }] },
};
const binding = (name: string): BoundMap | undefined =>
  maps[name] ? { map: maps[name], alias: 't', types: (c) => types[c] } : undefined;

/** The FILTER expression of `SELECT * WHERE { FILTER(<text>) }`. */
function filterOf(text: string): Expression {
  const query = new sparqljs.Parser().parse(
    `PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT * WHERE { FILTER(${text}) }`,
  ) as SelectQuery;
  return (query.where![0] as { expression: Expression }).expression;
}
const sql = (text: string) => columnComparison(filterOf(text), binding);

describe('column comparisons of FILTERs', () => {
  it('compares string, integer and decimal columns with constants of their kind', () => {
    expect(sql('?n = "EU"')).toBe(`t."name" = 'EU'`);
    expect(sql(`"O'B" <= ?n`)).toBe(`t."name" >= 'O''B'`);
    expect(sql('?a != 30')).toBe('t."age" <> 30');
    expect(sql('?p > 4.5')).toBe('t."price" > 4.5');
    expect(sql('?a < 1e3')).toBe(`t."age" < CAST('1e3' AS DOUBLE)`);
  });

  it('compares IRIs through the template columns', () => {
    expect(sql('?x = <http://example.com/p/7>')).toBe('t."id" = 7');
    expect(sql('?x != <http://example.com/p/7>')).toBe('NOT (t."id" = 7)');
    expect(sql('?x = <http://other.org/7>')).toBe('FALSE');
  });

  it('leaves to the general rules what a plain comparison would answer differently', () => {
    // Floating point columns (NaN), mixed kinds, tagged or typed literals, two variables, unknown variables.
    expect(sql('?s > 1')).toBeUndefined();
    expect(sql('?n = 1')).toBeUndefined();
    expect(sql('?a = "30"')).toBeUndefined();
    expect(sql('?n = "EU"@en')).toBeUndefined();
    expect(sql('?tagged = "EU"')).toBeUndefined();
    expect(sql('?typed = "EU"')).toBeUndefined();
    expect(sql('?a = ?p')).toBeUndefined();
    expect(sql('?unknown = 1')).toBeUndefined();
    expect(sql('?x < <http://example.com/p/7>')).toBeUndefined();
    expect(sql('?a = "1; DROP"^^xsd:integer')).toBeUndefined();
  });

  it('splits nested conjunctions only', () => {
    expect(conjuncts(filterOf('?a > 1 && (?n = "x" && ?p < 2)'))).toHaveLength(3);
    expect(conjuncts(filterOf('?a > 1 || ?n = "x"'))).toHaveLength(1);
  });
});
