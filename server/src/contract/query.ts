/** Wire shapes of `/api/v1/query`. */

/** A class or property of the SPARQL vocabulary, with its `rdfs:label` when the ontology gives one. */
export interface SparqlVocabularyTerm {
  iri: string;
  label?: string;
}

/** `GET /api/v1/query/sparql/vocabulary`: prefixes and terms for completing and shortening in the SPARQL console. */
export interface SparqlVocabulary {
  /** Prefix -> namespace IRI, from the ontology and mapping files and the usual RDF ones. */
  prefixes: Record<string, string>;
  classes: SparqlVocabularyTerm[];
  properties: SparqlVocabularyTerm[];
}
