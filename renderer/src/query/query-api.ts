import type { SparqlVocabulary } from '../../../server/src/contract/index.js';
import { ApiError } from '../api/client.js';
import { shortenIri } from './sparql-completion.js';

/** A column of a query result: its name and DuckDB type. */
export interface ResultColumn {
  name: string;
  type: string;
}

/** `POST /api/v1/query/sql` and the pages of `GET /async/{id}/results`. */
export interface QueryResult {
  columns: ResultColumn[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
  elapsed_ms: number;
  total_row_count?: number;
  next_offset?: number | null;
}

export interface QuerySource {
  name: string;
  type: 'relational' | 'streaming' | 'object-storage';
  description: string;
}

export type JobStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

/** `GET /api/v1/query/async/{id}/status`. */
export interface JobState {
  query_id: string;
  status: JobStatus;
  submitted_at: string;
  started_at?: string | null;
  completed_at?: string | null;
  error?: string | null;
}

/** `POST /api/v1/query/natural-language`: the answer in words, the SQL it ran and its rows. */
export interface NaturalLanguageAnswer {
  answer: string;
  generated_query: string;
  results: Record<string, unknown>[];
}

/** SPARQL 1.1 JSON results (SELECT) or an ASK answer. */
export interface SparqlJson {
  head: { vars?: string[] };
  results?: { bindings: Record<string, { type: string; value: string }>[] };
  boolean?: boolean;
}

const base = '/api/v1/query';

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(base + path, {
    method,
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  });
  if (!response.ok) {
    const error = (await response.json().catch(() => ({}))) as { detail?: string };
    throw new ApiError(response.status, error.detail ?? `${response.status} ${response.statusText}`);
  }
  return (await response.json()) as T;
}

/** The federated query API (`/api/v1/query`, docs/query.md). Errors carry the server's `detail`. */
export const queryApi = {
  sources: () => call<{ sources: QuerySource[] }>('GET', '/sources').then((r) => r.sources),
  tables: (source: string) =>
    call<{ tables: { name: string; columns: ResultColumn[] }[] }>(
      'GET',
      `/sources/${encodeURIComponent(source)}/tables`,
    ).then((r) => r.tables),
  sql: (query: string) => call<QueryResult>('POST', '/sql', { query }),
  submit: (query: string) => call<JobState>('POST', '/async', { query }),
  status: (id: string) => call<JobState>('GET', `/async/${encodeURIComponent(id)}/status`),
  results: (id: string, offset = 0, limit = 10_000) =>
    call<QueryResult>('GET', `/async/${encodeURIComponent(id)}/results?offset=${offset}&limit=${limit}`),
  cancel: (id: string) => call<JobState>('DELETE', `/async/${encodeURIComponent(id)}`),
  sparql: (query: string) => call<SparqlJson>('POST', '/sparql', { query }),
  /** The SQL a SPARQL query translates to, without running it. */
  explainSparql: (query: string) =>
    call<{ sql: string; translate_ms: number }>('POST', '/sparql?explain=true', { query }),
  sparqlVocabulary: () => call<SparqlVocabulary>('GET', '/sparql/vocabulary'),
  ask: (question: string) => call<NaturalLanguageAnswer>('POST', '/natural-language', { question }),
};

/**
 * A SPARQL JSON answer as a result table: terms shown by their value, IRIs shortened by `prefixes`
 * (`ex:Customer`); ASK as one `boolean` column.
 */
export function sparqlToResult(
  answer: SparqlJson,
  elapsedMs: number,
  prefixes: Record<string, string> = {},
): QueryResult {
  if (typeof answer.boolean === 'boolean') {
    return {
      columns: [{ name: 'boolean', type: 'BOOLEAN' }],
      rows: [{ boolean: answer.boolean }],
      row_count: 1,
      truncated: false,
      elapsed_ms: elapsedMs,
    };
  }
  const vars = answer.head.vars ?? [];
  const text = (term: { type: string; value: string } | undefined) =>
    !term ? null : term.type === 'uri' ? shortenIri(term.value, prefixes) : term.value;
  const rows = (answer.results?.bindings ?? []).map((binding) =>
    Object.fromEntries(vars.map((v) => [v, text(binding[v])])),
  );
  return {
    columns: vars.map((name) => ({ name, type: 'TERM' })),
    rows,
    row_count: rows.length,
    truncated: false,
    elapsed_ms: elapsedMs,
  };
}

/**
 * Rows without column types (the natural-language answer) as a result table: columns in the order of
 * the first row's keys, typed DOUBLE when every value is a number or null, else VARCHAR.
 */
export function rowsToResult(rows: Record<string, unknown>[], elapsedMs: number): QueryResult {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const columns = names.map((name) => ({
    name,
    type:
      rows.some((row) => typeof row[name] === 'number') &&
      rows.every((row) => row[name] === null || row[name] === undefined || typeof row[name] === 'number')
        ? 'DOUBLE'
        : 'VARCHAR',
  }));
  return { columns, rows, row_count: rows.length, truncated: false, elapsed_ms: elapsedMs };
}
