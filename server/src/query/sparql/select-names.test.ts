import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGraphFixture } from '../../../conformance/rdf/graph-fixture.js';
import { HttpError } from '../../core/errors.js';
import { SqlParser } from '../engine/sql-parser.js';
import { duplicateSelectNames } from './select-names.js';

describe('names an rr:sqlQuery gives more than once', () => {
  let parser: SqlParser;
  beforeAll(async () => {
    parser = await SqlParser.create();
  });
  afterAll(() => parser.close());
  const duplicates = async (sql: string): Promise<string[]> => duplicateSelectNames(await parser.parse(sql));

  it('finds a column named twice, by reference or alias, whatever the case', async () => {
    expect(await duplicates(`SELECT ('S' || ID) AS StudentId, "ID", "Name", 1 AS "ID" FROM db."Student"`)).toEqual([
      'id',
    ]);
    expect(await duplicates('SELECT s.name, t.Name FROM a s, b t')).toEqual(['name']);
    expect(await duplicates('SELECT a AS x, b AS y FROM t UNION SELECT 1 AS x, 2 AS x')).toEqual([]);
    expect(await duplicates('SELECT a AS x, b AS x FROM t UNION SELECT 1, 2')).toEqual(['x']);
  });

  it('does not judge names the engine makes up (a star, an expression without an alias)', async () => {
    expect(await duplicates('SELECT *, a FROM t')).toEqual([]);
    expect(await duplicates('SELECT a + 1, a + 1, a FROM t')).toEqual([]);
    expect(await duplicates('SELECT "ID", "Name" FROM t')).toEqual([]);
  });
});

describe('a mapping whose rr:sqlQuery names a column twice', () => {
  const statements = ['CREATE TABLE student (id INTEGER, name VARCHAR)', "INSERT INTO student VALUES (10, 'Venus')"];
  const mapping = (query: string): string =>
    `@prefix rr: <http://www.w3.org/ns/r2rml#> . @prefix ex: <http://example.com/> .
    <#S> rr:logicalTable [ rr:sqlQuery "${query}" ] ; rr:subjectMap [ rr:template "http://example.com/{id}" ] ;
      rr:predicateObjectMap [ rr:predicate ex:id ; rr:objectMap [ rr:column "id" ] ] .`;

  it('is refused with 503 SPARQL_UNAVAILABLE naming the column, not answered from the first of the two', async () => {
    const fixture = await openGraphFixture(statements, mapping('SELECT id, name, 1 AS ID FROM db.student'));
    try {
      const error: unknown = await fixture.sparql.run('SELECT * WHERE { ?s ?p ?o }').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ status: 503, code: 'SPARQL_UNAVAILABLE' });
      expect((error as HttpError).message).toMatch(/names the column "id" more than once/);
    } finally {
      await fixture.close();
    }
    // The same query with each name once answers.
    const valid = await openGraphFixture(statements, mapping('SELECT id, name, 1 AS one FROM db.student'));
    try {
      const answer = await valid.sparql.run('SELECT ?o WHERE { ?s <http://example.com/id> ?o }');
      expect(answer.kind === 'select' && answer.rows).toHaveLength(1);
    } finally {
      await valid.close();
    }
  });
});
