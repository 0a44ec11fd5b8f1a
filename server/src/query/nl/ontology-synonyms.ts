import type { Ontology } from '../sparql/ontology.js';
import type { MappedTriple, TermMap } from '../sparql/r2rml.js';
import { rdfType } from '../sparql/rdf.js';
import type { DeclaredSynonym } from './nl-settings.js';

const constantIri = (map: TermMap): string | undefined =>
  map.kind === 'constant' && map.term.type === 'iri' ? map.term.value : undefined;

/**
 * Ontology labels as synonyms: the label of a class mapped from a table names that table, the label
 * of a property mapped from a column names that column (`query/ontology.ttl` + `query/mapping.ttl`
 * beside sources.yaml, as loadQueryWorkspace read them).
 */
export function ontologySynonyms(ontology: Ontology, mapping: readonly MappedTriple[]): DeclaredSynonym[] {
  const synonyms: DeclaredSynonym[] = [];
  for (const triple of mapping) {
    const { source, table } = triple.child;
    if (!source || !table || triple.parent) continue;
    const predicate = constantIri(triple.predicate);
    if (!predicate) continue;
    const classIri = predicate === rdfType ? constantIri(triple.object) : undefined;
    const label = ontology.labels.get(classIri ?? predicate)?.toLowerCase();
    if (!label) continue;
    if (classIri) synonyms.push({ words: [label], source, table });
    else if (triple.object.kind === 'column')
      synonyms.push({ words: [label], source, table, column: triple.object.column });
  }
  return synonyms;
}
