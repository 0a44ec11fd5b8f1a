import { describe, expect, it } from 'vitest';
import { loadOntology, saturate } from './ontology.js';
import { loadMapping } from './r2rml.js';
import { vocabularyOf } from './vocabulary.js';

const ex = 'http://example.com/';

describe('SPARQL vocabulary', () => {
  it('lists mapped and ontology classes and properties with labels, and the prefixes', () => {
    const ontology = loadOntology(
      `@prefix ex: <${ex}> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . @prefix owl: ` +
        `<http://www.w3.org/2002/07/owl#> . @prefix : <${ex}empty#> .
      ex:Sub rdfs:subClassOf ex:Top ; rdfs:label "Sub"@en . ex:knows owl:inverseOf ex:knownBy . ex:age ` +
        `rdfs:domain ex:Person .`,
    );
    const triples = loadMapping(`@prefix rr: <http://www.w3.org/ns/r2rml#> . @prefix ex: <${ex}> .
      <#M> rr:logicalTable [ rr:tableName "db.t" ] ; rr:subjectMap [ rr:template "${ex}{id}" ; rr:class ex:Sub ] ;
        rr:predicateObjectMap [ rr:predicate ex:name ; rr:objectMap [ rr:column "name" ] ] ;
        rr:predicateObjectMap [ rr:predicateMap [ rr:column "p" ] ; rr:objectMap [ rr:column "o" ] ] .`);
    const vocabulary = vocabularyOf(saturate(triples, ontology), ontology);
    expect(vocabulary.classes).toEqual([
      { iri: `${ex}Person` },
      { iri: `${ex}Sub`, label: 'Sub' },
      { iri: `${ex}Top` },
    ]);
    expect(vocabulary.properties.map((p) => p.iri)).toEqual([`${ex}age`, `${ex}knownBy`, `${ex}knows`, `${ex}name`]);
    expect(vocabulary.prefixes).toMatchObject({
      ex,
      rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
      xsd: 'http://www.w3.org/2001/XMLSchema#',
    });
    expect(vocabulary.prefixes['']).toBeUndefined();
  });
});
