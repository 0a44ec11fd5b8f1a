import { describe, expect, it } from 'vitest';
import { loadMapping, MappingError, parseTemplate } from './r2rml.js';
import { loadOntology, saturate } from './ontology.js';
import { rdfType } from './rdf.js';

const head = '@prefix rr: <http://www.w3.org/ns/r2rml#> . @prefix ex: <http://example.com/> .\n';
const map = (body: string) => `${head}<#M> rr:logicalTable [ rr:tableName "db.t" ] ; ${body} .`;

describe('R2RML mapping loader', () => {
  it('reads tables, templates, columns, constants, classes, language tags, datatypes, graphs and joins', () => {
    const triples = loadMapping(
      `${head}
      <#A> rr:logicalTable [ rr:tableName "db.a" ] ;
        rr:subjectMap [ rr:template "http://x/a/{id}" ; rr:class ex:A ; rr:graph ex:g ] ;
        rr:predicateObjectMap [ rr:predicate ex:label ; rr:objectMap [ rr:column "label" ; rr:language "EN" ] ] ;
        rr:predicateObjectMap [ rr:predicate ex:n ; rr:objectMap [ rr:column "n" ; rr:datatype ` +
        `<http://www.w3.org/2001/XMLSchema#int> ] ] ;
        rr:predicateObjectMap [ rr:predicate ex:kind ; rr:object "fixed" ] ;
        rr:predicateObjectMap [ rr:predicate ex:b ; rr:objectMap [ rr:parentTriplesMap <#B> ; rr:joinCondition ` +
        `[ rr:child "b_id" ; rr:parent "id" ] ] ] .
      <#B> rr:logicalTable [ rr:sqlQuery "SELECT id FROM db.b" ] ; rr:subjectMap [ rr:template ` +
        `"http://x/b/{id}" ; rr:termType rr:BlankNode ] .`,
    );
    expect(triples).toHaveLength(5);
    const type = triples.find((t) => t.predicate.kind === 'constant' && t.predicate.term.value === rdfType)!;
    expect(type.child.from).toBe('"db"."a"');
    expect(type.graphs).toEqual([{ kind: 'constant', term: { type: 'iri', value: 'http://example.com/g' } }]);
    const label = triples.find(
      (t) => t.predicate.kind === 'constant' && t.predicate.term.value === 'http://example.com/label',
    )!;
    expect(label.object).toMatchObject({ kind: 'column', column: 'label', termType: 'literal', language: 'en' });
    const join = triples.find((t) => t.parent)!;
    expect(join.parent).toEqual({ table: { from: '(SELECT id FROM db.b)' }, joins: [{ child: 'b_id', parent: 'id' }] });
    expect(join.object).toMatchObject({ kind: 'template', termType: 'bnode' });
  });

  it('reads unique keys declared with aw:uniqueKey and shares them between maps of the same table', () => {
    const triples = loadMapping(
      `${head}@prefix aw: <urn:adaptive-workbench:r2rml#> .
      <#A> rr:logicalTable [ rr:tableName "db.a" ; aw:uniqueKey "id", "code, \\"Region\\"" ] ; rr:subjectMap [ ` +
        `rr:template "http://x/a/{id}" ; rr:class ex:A ] .
      <#B> rr:logicalTable [ rr:tableName "db.a" ] ; rr:subjectMap [ rr:template "http://x/b/{id}" ; rr:class ex:B ] .
      <#C> rr:logicalTable [ rr:tableName "db.c" ] ; rr:subjectMap [ rr:template "http://x/c/{id}" ; rr:class ` +
        `ex:C ] .`,
    );
    const keysOf = (cls: string) =>
      triples.find((t) => t.object.kind === 'constant' && t.object.term.value === `http://example.com/${cls}`)!.child
        .keys;
    expect(keysOf('A')).toEqual(expect.arrayContaining([['id'], ['code', 'Region']]));
    expect(keysOf('B')).toEqual(keysOf('A'));
    expect(keysOf('C')).toBeUndefined();
  });

  it('splits templates with escaped braces', () => {
    expect(parseTemplate('http://x/{a}\\{b\\}/{c}', 'test')).toEqual([
      { text: 'http://x/' },
      { column: 'a' },
      { text: '{b}/' },
      { column: 'c' },
    ]);
  });

  const invalid: [string, string, RegExp][] = [
    ['not Turtle', `${head} <#M> rr:logicalTable [`, /not valid Turtle/],
    ['no triples map', `${head} ex:a ex:b ex:c .`, /no rr:TriplesMap/],
    ['no subject map', `${head}<#M> rr:logicalTable [ rr:tableName "db.t" ] .`, /exactly one subject map/],
    [
      'two subject maps',
      map('rr:subjectMap [ rr:template "http://x/{a}" ], [ rr:template "http://y/{a}" ]'),
      /exactly one subject map/,
    ],
    [
      'table and query',
      `${head}<#M> rr:logicalTable [ rr:tableName "db.t" ; rr:sqlQuery "SELECT 1" ] ; rr:subjectMap [ ` +
        `rr:template "http://x/{a}" ] .`,
      /both rr:tableName and rr:sqlQuery/,
    ],
    ['literal subject', map('rr:subjectMap [ rr:column "a" ; rr:termType rr:Literal ]'), /may not produce literals/],
    [
      'bad language tag',
      map(
        'rr:subjectMap [ rr:template "http://x/{a}" ] ; rr:predicateObjectMap [ rr:predicate ex:p ; ' +
          'rr:objectMap [ rr:column "b" ; rr:language "en_US!" ] ]',
      ),
      /language tag/,
    ],
    [
      'datatype and language',
      map(
        'rr:subjectMap [ rr:template "http://x/{a}" ] ; rr:predicateObjectMap [ rr:predicate ex:p ; ' +
          'rr:objectMap [ rr:column "b" ; rr:language "en" ; rr:datatype ex:d ] ]',
      ),
      /both rr:datatype and rr:language/,
    ],
    [
      'an empty unique key',
      `${head}@prefix aw: <urn:adaptive-workbench:r2rml#> . <#M> rr:logicalTable [ rr:tableName "db.t" ; ` +
        `aw:uniqueKey "id, " ] ; rr:subjectMap [ rr:template "http://x/{a}" ] .`,
      /aw:uniqueKey/,
    ],
    ['unclosed template', map('rr:subjectMap [ rr:template "http://x/{a" ]'), /unclosed/],
    ['unknown term type', map('rr:subjectMap [ rr:template "http://x/{a}" ; rr:termType rr:Thing ]'), /rr:termType/],
    [
      'no object',
      map('rr:subjectMap [ rr:template "http://x/{a}" ] ; rr:predicateObjectMap [ rr:predicate ex:p ]'),
      /no object map/,
    ],
    [
      'unqualified table',
      `${head}<#M> rr:logicalTable [ rr:tableName "t" ] ; rr:subjectMap [ rr:template "http://x/{a}" ] .`,
      /<source>\.<table>/,
    ],
    [
      'join to a different table without condition',
      `${head}<#M> rr:logicalTable [ rr:tableName "db.t" ] ; rr:subjectMap [ rr:template "http://x/{a}" ] ; ` +
        (`rr:predicateObjectMap [ rr:predicate ex:p ; rr:objectMap [ rr:parentTriplesMap <#N> ] ] . <#N> ` +
          `rr:logicalTable [ rr:tableName "db.u" ] ; rr:subjectMap [ rr:template "http://y/{a}" ] .`),
      /needs an rr:joinCondition/,
    ],
  ];
  for (const [name, text, message] of invalid) {
    it(`rejects a mapping with ${name}`, () => {
      expect(() => loadMapping(text)).toThrow(MappingError);
      expect(() => loadMapping(text)).toThrow(message);
    });
  }
});

describe('ontology saturation', () => {
  it('adds super-classes, super-properties, inverses, domains and ranges', () => {
    const triples = loadMapping(
      `${head}<#M> rr:logicalTable [ rr:tableName "db.t" ] ; rr:subjectMap [ rr:template ` +
        `"http://x/{a}" ; rr:class ex:Sub ] ;
      rr:predicateObjectMap [ rr:predicate ex:knows ; rr:objectMap [ rr:template "http://x/{b}" ] ] ;
      rr:predicateObjectMap [ rr:predicate ex:name ; rr:objectMap [ rr:column "n" ] ] .`,
    );
    const ontology = loadOntology(
      `@prefix ex: <http://example.com/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . ` +
        `@prefix owl: <http://www.w3.org/2002/07/owl#> .
      ex:Sub rdfs:subClassOf ex:Mid . ex:Mid rdfs:subClassOf ex:Top . ex:knows rdfs:subPropertyOf ex:related . ` +
        `ex:relatedFrom owl:inverseOf ex:related .
      ex:knows rdfs:range ex:Person . ex:name rdfs:domain ex:Named . ex:name owl:inverseOf ex:nameOf .`,
    );
    const saturated = saturate(triples, ontology);
    const template = (parts: Array<{ text: string } | { column: string }>) =>
      parts.map((p) => ('text' in p ? p.text : `{${p.column}}`)).join('');
    const shortIri = (iri: string) => iri.replace('http://example.com/', '');
    const objectText = (o: (typeof saturated)[number]['object']) =>
      o.kind === 'constant' ? shortIri(o.term.value) : o.kind === 'template' ? template(o.parts) : `col:${o.column}`;
    const describe = saturated.map(
      (t) =>
        `${t.subject.kind === 'template' ? template(t.subject.parts) : 'c'} ` +
        `${t.predicate.kind === 'constant' ? shortIri(t.predicate.term.value) : '?'} ${objectText(t.object)}`,
    );
    expect(describe).toEqual(
      expect.arrayContaining([
        `http://x/{a} ${rdfType} Sub`,
        `http://x/{a} ${rdfType} Mid`,
        `http://x/{a} ${rdfType} Top`,
        'http://x/{a} related http://x/{b}',
        'http://x/{b} relatedFrom http://x/{a}',
        `http://x/{b} ${rdfType} Person`,
        `http://x/{a} ${rdfType} Named`,
      ]),
    );
    // A literal never becomes a subject through an inverse.
    expect(describe.some((d) => d.includes('nameOf'))).toBe(false);
  });
});
