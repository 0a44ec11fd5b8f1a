import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import N3 from 'n3';

const SD = 'http://www.w3.org/ns/sparql-service-description#';
const QT = 'http://www.w3.org/2001/sw/DataAccess/tests/test-query#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const RDFS_REGIME = 'http://www.w3.org/ns/entailment/RDFS';

/** The RDFS hierarchies, which the graph answers closed (from the ontology) under RDFS entailment. */
const HIERARCHY_PREDICATES = new Set(['subClassOf', 'subPropertyOf'].map((p) => `${RDFS}${p}`));
/** The RDFS axioms the translator reasons with (the rest of RDFS it does not entail). */
const SCHEMA_PREDICATES = new Set([...HIERARCHY_PREDICATES, ...['domain', 'range'].map((p) => `${RDFS}${p}`)]);

const regimeCache = new Map<string, Set<string>>();

/** The members of an RDF list (or the node itself when it is not a list). */
function listMembers(store: N3.Store, node: N3.Term): string[] {
  const first = store.getObjects(node, `${RDF}first`, null)[0];
  if (!first) return [node.value];
  const rest = store.getObjects(node, `${RDF}rest`, null)[0];
  return [first.value, ...(rest && rest.value !== `${RDF}nil` ? listMembers(store, rest) : [])];
}

/** The query files (as file URLs) of a manifest whose tests name the RDFS entailment regime. */
function rdfsQueries(manifest: string): Set<string> {
  const cached = regimeCache.get(manifest);
  if (cached) return cached;
  const queries = new Set<string>();
  if (fs.existsSync(manifest)) {
    const baseIRI = pathToFileURL(manifest).href;
    const store = new N3.Store(new N3.Parser({ baseIRI }).parse(fs.readFileSync(manifest, 'utf8')));
    for (const action of store.getSubjects(`${SD}entailmentRegime`, null, null)) {
      const regimes = store.getObjects(action, `${SD}entailmentRegime`, null).flatMap((r) => listMembers(store, r));
      if (!regimes.includes(RDFS_REGIME)) continue;
      for (const query of store.getObjects(action, `${QT}query`, null)) queries.add(query.value);
    }
  }
  regimeCache.set(manifest, queries);
  return queries;
}

/** Whether the test of `queryFile` is evaluated under RDFS entailment (its manifest says so). */
export function underRdfsEntailment(queryFile: string): boolean {
  return rdfsQueries(path.join(path.dirname(queryFile), 'manifest.ttl')).has(pathToFileURL(queryFile).href);
}

const isSchemaAxiom = (quad: N3.Quad): boolean =>
  SCHEMA_PREDICATES.has(quad.predicate.value) && quad.subject.termType === 'NamedNode';

/** Whether `quad` states a sub-class or sub-property, which the ontology's closure states again. */
export const isHierarchyAxiom = (quad: N3.Quad): boolean =>
  isSchemaAxiom(quad) && HIERARCHY_PREDICATES.has(quad.predicate.value);

/**
 * The data's RDFS axioms as an ontology (Turtle): a virtual graph keeps its schema in the ontology file
 * and entails from it, so a test under RDFS entailment gets its data's schema there (and in the data too,
 * where queries can read the axioms themselves).
 */
export function schemaOntology(quads: readonly N3.Quad[]): string {
  const writer = new N3.Writer({ format: 'N-Triples' });
  for (const q of quads) if (isSchemaAxiom(q)) writer.addQuad(q);
  let text = '';
  writer.end((error, result: string) => {
    if (error) throw error;
    text = result;
  });
  return text;
}
