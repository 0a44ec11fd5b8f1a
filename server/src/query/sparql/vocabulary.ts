import type { SparqlVocabulary } from '../../contract/index.js';
import type { Ontology } from './ontology.js';
import type { MappedTriple } from './r2rml.js';
import { OWL, RDF, RDFS, XSD, rdfType } from './rdf.js';

/** Prefixes every SPARQL user expects, below those the workspace declares. */
const standardPrefixes: Record<string, string> = { rdf: RDF, rdfs: RDFS, owl: OWL, xsd: XSD };

/**
 * The vocabulary a SPARQL query over this graph can use: the classes and properties the ontology
 * speaks of or the saturated mapping produces, with their labels, and the ontology's prefixes.
 */
export function vocabularyOf(triples: readonly MappedTriple[], ontology: Ontology): SparqlVocabulary {
  const classes = new Set<string>();
  const properties = new Set<string>();
  for (const t of triples) {
    if (t.predicate.kind !== 'constant') continue;
    if (t.predicate.term.value !== rdfType) properties.add(t.predicate.term.value);
    else if (t.object.kind === 'constant' && t.object.term.type === 'iri') classes.add(t.object.term.value);
  }
  for (const [cls, supers] of ontology.superClasses) for (const c of [cls, ...supers]) classes.add(c);
  for (const [property, supers] of ontology.superProperties) for (const p of [property, ...supers]) properties.add(p);
  for (const [property, inverses] of ontology.inverses) for (const p of [property, ...inverses]) properties.add(p);
  for (const map of [ontology.domains, ontology.ranges]) {
    for (const [property, types] of map) {
      properties.add(property);
      for (const c of types) classes.add(c);
    }
  }
  const term = (iri: string) => ({ iri, ...(ontology.labels.has(iri) ? { label: ontology.labels.get(iri) } : {}) });
  const sorted = (set: Set<string>) => [...set].sort().map(term);
  // Empty prefixes (`@prefix : <...>`) cannot be typed as a name; the ontology's own win over the standard ones.
  const declared = Object.entries(ontology.prefixes).filter(([name]) => name !== '');
  return {
    prefixes: { ...standardPrefixes, ...Object.fromEntries(declared) },
    classes: sorted(classes),
    properties: sorted(properties),
  };
}
