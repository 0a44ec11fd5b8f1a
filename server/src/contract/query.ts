/** Wire shapes of `/api/v1/query`. Field names are snake_case, as the service document spells them. */

/** A JSON value: what a result cell can hold (big integers and wide decimals arrive as strings). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The body of `POST /sql` and `POST /async` (and the JSON form of `POST /sparql`). */
export interface QueryRequest {
  query: string;
}

/** The body of `POST /natural-language`. */
export interface QuestionRequest {
  question: string;
  /**
   * The asker's choice after a 422 `NL_AMBIGUOUS`: `table.column` names from its `candidates`; a word that fits
   * several columns equally well goes to the one named here.
   */
  prefer?: string[];
}

/** A synonym for sources.yaml's `natural_language.synonyms`: `words` mean `means` (source.table.column) = `value`. */
export interface SynonymSuggestion {
  words: string[];
  means: string;
  value?: string;
}

/** `POST /natural-language/synonym`: sources.yaml with the synonym added, comments kept, for a normal file save. */
export interface SynonymProposal {
  /** The file's path in the workspace file API (`query/sources.yaml`); absent when it lies outside the workspace. */
  path?: string;
  /** The YAML of the entry added, as it appears in the file. */
  added: string;
  /** The whole file with the entry added. */
  content: string;
}

/** One source of `GET /sources`: names, types and descriptions only, never a setting. */
export interface QuerySource {
  name: string;
  type: 'relational' | 'streaming' | 'object-storage';
  description: string;
}

/** `GET /sources`. */
export interface SourceList {
  sources: QuerySource[];
}

/** A result column as the API shows it: its name and DuckDB type (`BIGINT`, `DECIMAL(12,2)`, ...). */
export interface ResultColumn {
  name: string;
  type: string;
}

/** A table a source offers, with its columns. */
export interface SourceTable {
  name: string;
  columns: ResultColumn[];
}

/** `GET /sources/{name}/tables`. */
export interface SourceTables {
  source: string;
  tables: SourceTable[];
}

/** One row of a result: column name to value. */
export type ResultRow = Record<string, JsonValue>;

/** `POST /sql`: a query's result. */
export interface SqlResult {
  columns: ResultColumn[];
  rows: ResultRow[];
  row_count: number;
  truncated: boolean;
  /** When truncated: which limit cut the result (`the result was cut at the byte limit of ...`). */
  truncated_reason?: string;
  elapsed_ms: number;
}

/** `GET /async/{id}/results`: a page of a stored result, the SQL result shape plus where the page sits. */
export interface ResultPage extends SqlResult {
  offset: number;
  total_row_count: number;
  next_offset: number | null;
}

/** The states of an async query; FAILED and CANCELLED are final like COMPLETED. */
export type JobStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

/** `GET /async/{id}/status` and `DELETE /async/{id}`: the status document of an async query. */
export interface JobStatusView {
  query_id: string;
  status: JobStatus;
  submitted_at: string;
  /** When a worker took the job; null while it waits. */
  started_at: string | null;
  completed_at: string | null;
  error: string | null;
  /** With `engine: trino`: the query's id at Trino once it is sent (Trino's web UI and system.runtime.queries). */
  engine_query_id?: string;
}

/** `POST /async` (202): the accepted query, `RUNNING` (waiting or running). */
export type AsyncSubmission = Pick<JobStatusView, 'query_id' | 'status' | 'submitted_at'>;

/** `POST /natural-language`: the answer in words, the SQL it ran and its rows (service document part 2). */
export interface NaturalLanguageResult {
  answer: string;
  generated_query: string;
  results: ResultRow[];
  /**
   * The columns of `results` with their DuckDB types, as `POST /sql` gives them: a DECIMAL or HUGEINT
   * aggregate travels as a string (for precision) but its type still says it is a number.
   */
  columns: ResultColumn[];
  /** With `prefer`: the choices the answer used, as synonyms that would settle the question without a pick. */
  synonyms?: SynonymSuggestion[];
}

/** An RDF term of SPARQL 1.1 Query Results JSON. */
export interface SparqlTerm {
  type: 'uri' | 'literal' | 'bnode';
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

/** `POST /sparql` with a SELECT query: SPARQL 1.1 Query Results JSON, unbound variables absent. */
export interface SparqlSelectResults {
  head: { vars: string[] };
  results: { bindings: Record<string, SparqlTerm>[] };
}

/** `POST /sparql` with an ASK query. */
export interface SparqlAskResult {
  head: Record<string, never>;
  boolean: boolean;
}

/** `POST /sparql` as JSON (CONSTRUCT and DESCRIBE answer Turtle or N-Triples instead). */
export type SparqlResults = SparqlSelectResults | SparqlAskResult;

/** `POST /sparql?explain=true`: the SQL a SPARQL query translates to, without running it. */
export interface SparqlExplanation {
  sql: string;
  /** Time the translation took, in milliseconds (three decimals). */
  translate_ms: number;
}

/** A class or property of the SPARQL vocabulary, with its `rdfs:label` when the ontology gives one. */
export interface SparqlVocabularyTerm {
  iri: string;
  label?: string;
}

/** `GET /sparql/vocabulary`: prefixes and terms for completing and shortening in the SPARQL console. */
export interface SparqlVocabulary {
  /** Prefix -> namespace IRI, from the ontology and mapping files and the usual RDF ones. */
  prefixes: Record<string, string>;
  classes: SparqlVocabularyTerm[];
  properties: SparqlVocabularyTerm[];
}
