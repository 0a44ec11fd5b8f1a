import { useCallback, useEffect, useRef, useState } from 'react';
import type { SparqlVocabulary, SqlResult, SynonymSuggestion } from '../../../server/src/contract/index.js';
import { ApiError, type ErrorPosition } from '../api/client.js';
import { useSessionState, useWorkbench } from '../platform/workbench-context.js';
import { usePersistedState } from '../state/persisted.js';
import { isGroupedAggregate } from './chart-data.js';
import type { Catalog } from '../editor/languages/completion.js';
import { addToHistory, loadHistory, type HistoryEntry } from './history.js';
import { useJobPolling, type TrackedJob } from './JobsList.js';
import { AmbiguousQuestionError, answerToResult, queryApi, sparqlToResult } from './query-api.js';
import { declaredPrefixes } from '../editor/languages/sparql-completion.js';
import { tableReferences, type TableReference } from './sql-references.js';
import { inWholeText, statementsToRun, type RunRequest, type Statement } from './sql-statements.js';

/** The languages of the console: SQL, SPARQL, or a question in words. */
export type QueryMode = 'sql' | 'sparql' | 'nl';

export const queryModes: { id: QueryMode; title: string; placeholder: string }[] = [
  { id: 'sql', title: 'SQL', placeholder: 'SELECT * FROM shop.orders LIMIT 10' },
  { id: 'sparql', title: 'SPARQL', placeholder: 'SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 10' },
  { id: 'nl', title: 'Question', placeholder: 'average order value by region' },
];

/**
 * What the result area shows: a result (with the generated SQL or answer of a question), an error,
 * or a run in progress.
 */
export interface Outcome {
  result?: SqlResult;
  answer?: string;
  generatedQuery?: string;
  /** A question's grouped aggregate: its chart is drawn above the rows. */
  chartAlongside?: boolean;
  error?: string;
  /** Where the error is in the query of `mode`, for its editor to mark. */
  errorAt?: ErrorPosition & { mode: QueryMode };
  running?: boolean;
  /** When the run began (`Date.now()`), for the elapsed time shown while it runs. */
  startedAt?: number;
  /** The editor's whole text when it ran: an error of other text is stale. */
  ranText?: string;
  /** A script's statements, each with its own outcome (one result tab each), in order. */
  script?: ScriptStep[];
  /** The run in progress, for {@link cancelRun}. */
  runId?: string;
  /** The run was cancelled before it answered. */
  cancelled?: boolean;
  source?: string;
  /** The result is a page of this async job's stored rows; the others are read page by page. */
  jobId?: string;
  /** The question asked, when it was refused as ambiguous or answered after a pick. */
  question?: string;
  /** A 422 `NL_AMBIGUOUS`: the columns (`table.column`) the asker may pick from. */
  candidates?: string[];
  /** An answer after a pick: the pick as synonyms that would settle the question in sources.yaml. */
  synonyms?: SynonymSuggestion[];
}

/** One statement of a script run and what it gave (nothing yet when an earlier one failed or was cancelled). */
export interface ScriptStep {
  statement: string;
  outcome: Outcome;
}

const maxJobs = 50;

/** The rows of a job's result read at once: one page of the grid at its default size. */
export const jobPageSize = 1000;

/** The runs in progress, by run id: aborting one stops its request, and the server then stops its query. */
const runsInProgress = new Map<string, AbortController>();
/** Numbers the runs of this page (a counter, as `crypto.randomUUID` exists only in secure contexts). */
let runsStarted = 0;

/** Cancels run `runId` if it is still in progress (its outcome then says so); false when it is not. */
export function cancelRun(runId: string): boolean {
  const run = runsInProgress.get(runId);
  run?.abort();
  return run !== undefined;
}

/**
 * The outcome of a run that failed: the server's detail, and where the error is when the server says (in the whole
 * text, when `statement` was taken from it).
 */
function failure(error: unknown, mode: QueryMode, statement?: Statement): Outcome {
  const position = error instanceof ApiError ? error.position : undefined;
  const at = position && statement ? inWholeText(position, statement) : position;
  return { error: (error as Error).message, errorAt: at && { ...at, mode } };
}

/**
 * Runs `query` now (a question with the asker's `prefer`, when picked): the outcome to show, and the SQL whose tables
 * the catalog may learn.
 */
async function execute(
  mode: QueryMode,
  query: string,
  vocabulary: SparqlVocabulary | undefined,
  signal: AbortSignal,
  prefer?: string[],
): Promise<{ outcome: Outcome & { result: SqlResult }; sql?: string }> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (mode === 'sql') return { outcome: { result: await queryApi.sql(query, signal) }, sql: query };
  if (mode === 'sparql') {
    const prefixes = { ...vocabulary?.prefixes, ...declaredPrefixes(query) };
    return { outcome: { result: sparqlToResult(await queryApi.sparql(query, signal), elapsed(), prefixes) } };
  }
  const answer = await queryApi.ask(query, prefer, signal);
  const result = answerToResult(answer, elapsed());
  const chartAlongside = isGroupedAggregate(result, answer.generated_query);
  const { synonyms } = answer;
  return {
    outcome: {
      result,
      answer: answer.answer,
      generatedQuery: answer.generated_query,
      chartAlongside,
      ...(synonyms ? { synonyms, question: query } : {}),
    },
    sql: answer.generated_query,
  };
}

export interface QueryRunsOptions {
  mode: QueryMode;
  /** The editor's text in the current mode. */
  text: string;
  /** SQL is submitted as an async job instead of run. */
  runAsync: boolean;
  vocabulary?: SparqlVocabulary;
  catalog: Catalog;
  learn(tables: TableReference[]): Promise<string | undefined>;
  /** A job was submitted: show the jobs. */
  onSubmitted(): void;
}

/**
 * What the console runs and what it ran: the outcome on show (kept while the panel is hidden), the
 * history, and the async jobs (remembered: they and their results live on the server across restarts).
 */
export function useQueryRuns({ mode, text, runAsync, vocabulary, catalog, learn, onSubmitted }: QueryRunsOptions) {
  const { notify } = useWorkbench();
  const [outcome, setOutcome] = useSessionState<Outcome>('query-outcome', {});
  const [history, setHistory] = useState<HistoryEntry[]>(loadHistory);
  const [jobs, setJobs] = usePersistedState<TrackedJob[]>('query-jobs', []);
  useJobPolling(jobs, setJobs);
  useLearnedFromHistory(history, catalog.sources, learn);
  const record = useCallback(
    (entry: Omit<HistoryEntry, 'at'>) => setHistory((h) => addToHistory(h, { ...entry, at: Date.now() })),
    [],
  );

  const submit = async (query: string) => {
    try {
      const job = await queryApi.submit(query);
      setJobs((list) => [{ ...job, query }, ...list].slice(0, maxJobs));
      onSubmitted();
      record({ query, kind: 'sql', ok: true });
      notify(`Query ${job.query_id} submitted`);
    } catch (e) {
      setOutcome(failure(e, 'sql'));
      record({ query, kind: 'sql', ok: false });
    }
  };

  const { runNow, runScript } = useRunner({ text, vocabulary, catalog, learn, record, setOutcome });

  /** Runs what `request` picks from the text (by default every statement); a question runs whole. */
  const run = async (request: RunRequest = { cursor: 0, script: true }) => {
    if (!text.trim()) return;
    if (mode === 'nl') return runNow(mode, text.trim());
    const statements = statementsToRun(text, mode, request);
    if (mode === 'sql' && runAsync) {
      for (const statement of statements) await submit(statement.text);
      return;
    }
    if (statements.length > 1) return runScript(statements);
    if (statements[0]) await runNow(mode, statements[0].text, undefined, statements[0]);
  };

  /** Asks the refused question again with `candidate` (`table.column`) winning the tie. */
  const pick = async (candidate: string) => {
    if (outcome.question) await runNow('nl', outcome.question, [candidate]);
  };

  /** The SQL the SPARQL query translates to, shown above the current result. */
  const explain = async () => {
    const query = text.trim();
    if (!query) return;
    try {
      const { sql, translate_ms: ms } = await queryApi.explainSparql(query);
      const answer = `Generated SQL (translated in ${ms} ms)`;
      setOutcome((o) => ({ ...o, error: undefined, errorAt: undefined, answer, generatedQuery: sql }));
    } catch (e) {
      setOutcome((o) => ({ ...o, ...failure(e, mode) }));
    }
  };

  const openJob = async (job: TrackedJob) => {
    setOutcome({ running: true });
    try {
      const result = await queryApi.results(job.query_id, 0, jobPageSize);
      setOutcome({ result, source: `Job ${job.query_id}`, jobId: job.query_id });
    } catch (e) {
      setOutcome({ error: (e as Error).message });
    }
  };

  return { outcome, history, jobs, setJobs, run, pick, explain, openJob };
}

interface RunnerOptions extends Pick<QueryRunsOptions, 'text' | 'vocabulary' | 'catalog' | 'learn'> {
  record(entry: Omit<HistoryEntry, 'at'>): void;
  setOutcome(outcome: Outcome): void;
}

/** Runs a query, or a script of statements, as the run in progress: shown, timed, cancellable and recorded. */
function useRunner({ text, vocabulary, catalog, learn, record, setOutcome }: RunnerOptions) {
  /** Runs `query` and records it: its outcome, or the failure (marked in the whole text when from statement `at`). */
  const runOne = async (kind: QueryMode, query: string, signal: AbortSignal, prefer?: string[], at?: Statement) => {
    try {
      const { outcome, sql } = await execute(kind, query, vocabulary, signal, prefer);
      const { row_count: rowCount, elapsed_ms: elapsedMs } = outcome.result;
      record({ query, kind, ok: true, rowCount, elapsedMs });
      if (sql) void learn(tableReferences(sql, catalog.sources));
      return outcome;
    } catch (e) {
      record({ query, kind, ok: false });
      // An ambiguous question keeps its candidates, for the asker to pick one.
      const candidates = e instanceof AmbiguousQuestionError ? { candidates: e.candidates, question: query } : {};
      return signal.aborted ? { cancelled: true } : { ...failure(e, kind, at), ...candidates };
    }
  };

  /** Runs `work` as the run in progress (cancellable, timed), showing what it reports. */
  const inProgress = async (work: (signal: AbortSignal, show: (o: Outcome) => void) => Promise<Outcome>) => {
    const runId = String(++runsStarted);
    const controller = new AbortController();
    runsInProgress.set(runId, controller);
    const running = { running: true, runId, startedAt: Date.now(), ranText: text };
    setOutcome(running);
    try {
      const outcome = await work(controller.signal, (o) => setOutcome({ ...running, ...o }));
      setOutcome({ ...outcome, ranText: text });
    } finally {
      runsInProgress.delete(runId);
    }
  };

  /** Runs `query` in `kind` (a question with the asker's `prefer`) and shows its outcome. */
  const runNow = (kind: QueryMode, query: string, prefer?: string[], statement?: Statement) =>
    inProgress((signal) => runOne(kind, query, signal, prefer, statement));

  /** Runs `statements` one after the other, one result tab each; stops at the first that fails or is cancelled. */
  const runScript = (statements: Statement[]) =>
    inProgress(async (signal, show) => {
      const steps: ScriptStep[] = statements.map((statement) => ({ statement: statement.text, outcome: {} }));
      for (const [i, statement] of statements.entries()) {
        steps[i] = { ...steps[i], outcome: { running: true } };
        show({ script: [...steps] });
        const outcome = await runOne('sql', statement.text, signal, undefined, statement);
        steps[i] = { ...steps[i], outcome };
        if (!outcome.result) return { script: steps, errorAt: outcome.errorAt };
      }
      return { script: steps };
    });

  return { runNow, runScript };
}

/** Tables named by earlier successful queries are known again after a restart (once the sources are listed). */
function useLearnedFromHistory(
  history: HistoryEntry[],
  sourceNames: string[],
  learn: (tables: TableReference[]) => Promise<string | undefined>,
): void {
  const learned = useRef(false);
  useEffect(() => {
    if (learned.current || sourceNames.length === 0) return;
    learned.current = true;
    void learn(history.filter((h) => h.kind === 'sql' && h.ok).flatMap((h) => tableReferences(h.query, sourceNames)));
  }, [history, sourceNames, learn]);
}

/**
 * The SPARQL vocabulary (prefixes, classes, properties), fetched the first time it is `wanted`;
 * undefined until then or when it fails.
 */
export function useSparqlVocabulary(wanted: boolean): SparqlVocabulary | undefined {
  const [vocabulary, setVocabulary] = useState<SparqlVocabulary>();
  const requested = useRef(false);
  useEffect(() => {
    if (!wanted || requested.current) return;
    requested.current = true;
    // Without it the console still runs SPARQL, only without completion of terms or short IRIs.
    queryApi.sparqlVocabulary().then(setVocabulary, () => undefined);
  }, [wanted]);
  return vocabulary;
}
