import type {
  AsyncSubmission,
  JobStatusView,
  NaturalLanguageResult,
  ResultPage,
  SourceList,
  SourceTables,
  SparqlExplanation,
  SparqlResults,
  SparqlTerm,
  SparqlVocabulary,
  SqlResult,
  SynonymProposal,
  SynonymSuggestion,
} from '../../../server/src/contract/index.js';
import { ApiError, errorPosition } from '../api/client.js';
import { ownFetch } from '../api/own-fetch.js';
import { shortenIri } from '../editor/languages/sparql-completion.js';

const base = '/api/v1/query';

/** A 422 `NL_AMBIGUOUS`: a word of the question fits each of `candidates` (`table.column`) equally well. */
export class AmbiguousQuestionError extends ApiError {
  constructor(
    status: number,
    detail: string,
    readonly candidates: string[],
  ) {
    super(status, detail);
    this.name = 'AmbiguousQuestionError';
  }
}

/** One request; `signal` aborts it (the server then interrupts a synchronous query: docs/query.md). */
async function call<T>(method: string, path: string, body?: object, signal?: AbortSignal): Promise<T> {
  const response = await ownFetch(base + path, {
    method,
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
    signal,
  });
  if (!response.ok) {
    const error = (await response.json().catch(() => ({}))) as {
      detail?: string;
      code?: string;
      candidates?: unknown;
      line?: unknown;
      column?: unknown;
    };
    const detail = error.detail ?? `${response.status} ${response.statusText}`;
    if (error.code === 'NL_AMBIGUOUS' && Array.isArray(error.candidates))
      throw new AmbiguousQuestionError(response.status, detail, error.candidates.map(String));
    throw new ApiError(response.status, detail, errorPosition(error), error.code);
  }
  return (await response.json()) as T;
}

/** The federated query API (`/api/v1/query`, docs/query.md). Errors carry the server's `detail`. */
export const queryApi = {
  sources: () => call<SourceList>('GET', '/sources').then((r) => r.sources),
  tables: (source: string) =>
    call<SourceTables>('GET', `/sources/${encodeURIComponent(source)}/tables`).then((r) => r.tables),
  sql: (query: string, signal?: AbortSignal) => call<SqlResult>('POST', '/sql', { query }, signal),
  submit: (query: string) => call<AsyncSubmission>('POST', '/async', { query }),
  status: (id: string) => call<JobStatusView>('GET', `/async/${encodeURIComponent(id)}/status`),
  /** One page of a COMPLETED job's rows: `limit` (at most 10,000) from `offset`, with the total. */
  results: (id: string, offset = 0, limit = 1000) =>
    call<ResultPage>('GET', `/async/${encodeURIComponent(id)}/results?offset=${offset}&limit=${limit}`),
  cancel: (id: string) => call<JobStatusView>('DELETE', `/async/${encodeURIComponent(id)}`),
  sparql: (query: string, signal?: AbortSignal) => call<SparqlResults>('POST', '/sparql', { query }, signal),
  /** The SQL a SPARQL query translates to, without running it. */
  explainSparql: (query: string) => call<SparqlExplanation>('POST', '/sparql?explain=true', { query }),
  sparqlVocabulary: () => call<SparqlVocabulary>('GET', '/sparql/vocabulary'),
  /** A question; `prefer` names the candidate (`table.column`) the asker picked after a 422 `NL_AMBIGUOUS`. */
  ask: (question: string, prefer?: string[], signal?: AbortSignal) =>
    call<NaturalLanguageResult>('POST', '/natural-language', prefer ? { question, prefer } : { question }, signal),
  /** sources.yaml as it would be with `synonym` added (nothing is written). */
  proposeSynonym: (synonym: SynonymSuggestion) => call<SynonymProposal>('POST', '/natural-language/synonym', synonym),
};

/**
 * A SPARQL JSON answer as a result table: terms shown by their value, IRIs shortened by `prefixes`
 * (`ex:Customer`); ASK as one `boolean` column.
 */
export function sparqlToResult(
  answer: SparqlResults,
  elapsedMs: number,
  prefixes: Record<string, string> = {},
): SqlResult {
  if ('boolean' in answer) {
    return {
      columns: [{ name: 'boolean', type: 'BOOLEAN' }],
      rows: [{ boolean: answer.boolean }],
      row_count: 1,
      truncated: false,
      elapsed_ms: elapsedMs,
    };
  }
  const vars = answer.head.vars;
  const text = (term: SparqlTerm | undefined) =>
    !term ? null : term.type === 'uri' ? shortenIri(term.value, prefixes) : term.value;
  const rows = answer.results.bindings.map((binding) => Object.fromEntries(vars.map((v) => [v, text(binding[v])])));
  return {
    columns: vars.map((name) => ({ name, type: 'TERM' })),
    rows,
    row_count: rows.length,
    truncated: false,
    elapsed_ms: elapsedMs,
  };
}

/**
 * A question's answer as a result table, with the column types the server read from the engine (a
 * DECIMAL sum arrives as a string, and is still a number column: numeric styling, sorting, the chart).
 */
export function answerToResult(answer: NaturalLanguageResult, elapsedMs: number): SqlResult {
  const rows = answer.results;
  return { columns: answer.columns, rows, row_count: rows.length, truncated: false, elapsed_ms: elapsedMs };
}
