import { describe, expect, it } from 'vitest';
import { formatSparql, formatSql } from './query-format.js';

describe('formatSql', () => {
  it('lays out a statement one clause a line, keeping strings and dollar quotes', () => {
    expect(formatSql("select a, b from t where x = 'a;b' and y = $$c$$")).toEqual({
      text: "select\n  a,\n  b\nfrom\n  t\nwhere\n  x = 'a;b'\n  and y = $$c$$",
    });
  });

  it('keeps every statement of a script, and its comments', () => {
    const { text } = formatSql('select 1; -- one\nselect 2') as { text: string };
    expect(text).toContain('-- one');
    expect(text.match(/select/g)).toHaveLength(2);
  });

  it('refuses text it cannot read, leaving it as it is', () => {
    expect(formatSql("select 'unterminated")).toHaveProperty('refused');
  });
});

describe('formatSparql', () => {
  it('writes the query again indented, rdf:type as a', () => {
    const formatted = formatSparql('PREFIX ex: <http://e/#> SELECT ?s WHERE { ?s a ex:C ; ex:p "x#y" } LIMIT 3');
    expect(formatted).toEqual({
      text: 'PREFIX ex: <http://e/#>\nSELECT ?s WHERE {\n  ?s a ex:C;\n    ex:p "x#y".\n}\nLIMIT 3',
    });
  });

  it('refuses a query with comments rather than drop them', () => {
    expect(formatSparql('# all\nSELECT * WHERE { ?s ?p ?o }')).toHaveProperty('refused');
  });

  it('refuses a query that does not parse', () => {
    expect(formatSparql('SELECT * WHERE {')).toHaveProperty('refused');
  });
});
