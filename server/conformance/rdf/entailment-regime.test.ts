import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import N3 from 'n3';
import { afterAll, describe, expect, it } from 'vitest';
import { isHierarchyAxiom, schemaOntology, underRdfsEntailment } from './entailment-regime.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-regime-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const manifest = `@prefix mf: <http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#> .
@prefix qt: <http://www.w3.org/2001/sw/DataAccess/tests/test-query#> .
@prefix sd: <http://www.w3.org/ns/sparql-service-description#> .
@prefix ent: <http://www.w3.org/ns/entailment/> .
<#a> mf:action [ qt:query <a.rq> ; sd:entailmentRegime ( ent:RDFS ent:D ) ] .
<#b> mf:action [ qt:query <b.rq> ; sd:entailmentRegime ent:OWL-Direct ] .
<#c> mf:action [ qt:query <c.rq> ] .
`;

describe('underRdfsEntailment', () => {
  fs.writeFileSync(path.join(dir, 'manifest.ttl'), manifest);

  it('is true for a test whose regimes (a list) include RDFS', () => {
    expect(underRdfsEntailment(path.join(dir, 'a.rq'))).toBe(true);
  });

  it('is false for other regimes, no regime, or a folder without a manifest', () => {
    expect(underRdfsEntailment(path.join(dir, 'b.rq'))).toBe(false);
    expect(underRdfsEntailment(path.join(dir, 'c.rq'))).toBe(false);
    expect(underRdfsEntailment(path.join(dir, 'none', 'a.rq'))).toBe(false);
  });
});

describe('schemaOntology', () => {
  it('keeps the RDFS axioms the translator reasons with and nothing else', () => {
    const quads = new N3.Parser().parse(`@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
      @prefix ex: <http://example.org/> .
      ex:c1 rdfs:subClassOf ex:c2 . ex:p rdfs:subPropertyOf ex:q . ex:p rdfs:domain ex:c1 . ex:p rdfs:range ex:c2 .
      ex:a a ex:c1 . ex:a ex:p ex:b . _:x rdfs:subClassOf ex:c2 .`);
    const kept = new N3.Parser().parse(schemaOntology(quads)).map((q) => q.predicate.value.split('#')[1]);
    expect(kept.sort()).toEqual(['domain', 'range', 'subClassOf', 'subPropertyOf']);
    // The hierarchies leave the data (the ontology's closure states them again); domains and ranges stay.
    const hierarchy = quads.filter(isHierarchyAxiom).map((q) => q.predicate.value.split('#')[1]);
    expect(hierarchy.sort()).toEqual(['subClassOf', 'subPropertyOf']);
  });
});
