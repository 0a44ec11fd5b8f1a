import fs from 'node:fs';
import path from 'node:path';
import { loadOntology } from '../sparql/ontology.js';
import { loadMapping, type TermMap } from '../sparql/r2rml.js';
import { rdfType } from '../sparql/rdf.js';
import type { DeclaredSynonym } from './nl-settings.js';

const constantIri = (map: TermMap): string | undefined =>
  map.kind === 'constant' && map.term.type === 'iri' ? map.term.value : undefined;

/**
 * Ontology labels as synonyms: the label of a class mapped from a table names that table, the label
 * of a property mapped from a column names that column (`query/ontology.ttl` + `query/mapping.ttl`
 * beside sources.yaml). Both files are optional; one that does not load adds nothing, since the SPARQL
 * endpoint reports its errors.
 */
export function ontologySynonyms(sourcesFile: string): DeclaredSynonym[] {
  const dir = path.dirname(sourcesFile);
  const ontologyFile = path.join(dir, 'ontology.ttl');
  const mappingFile = path.join(dir, 'mapping.ttl');
  if (!fs.existsSync(ontologyFile) || !fs.existsSync(mappingFile)) return [];
  let labels: Map<string, string>;
  let triples;
  try {
    labels = loadOntology(fs.readFileSync(ontologyFile, 'utf8')).labels;
    triples = loadMapping(fs.readFileSync(mappingFile, 'utf8'));
  } catch {
    return [];
  }
  const synonyms: DeclaredSynonym[] = [];
  for (const triple of triples) {
    const { source, table } = triple.child;
    if (!source || !table || triple.parent) continue;
    const predicate = constantIri(triple.predicate);
    if (!predicate) continue;
    const classIri = predicate === rdfType ? constantIri(triple.object) : undefined;
    const label = labels.get(classIri ?? predicate)?.toLowerCase();
    if (!label) continue;
    if (classIri) synonyms.push({ words: [label], source, table });
    else if (triple.object.kind === 'column')
      synonyms.push({ words: [label], source, table, column: triple.object.column });
  }
  return synonyms;
}
