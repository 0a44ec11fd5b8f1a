import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useWorkbench } from '../app/workbench-context.js';
import { usePersistedState } from '../state/persisted.js';
import { useCatalog } from './catalog-store.js';
import { addToHistory, loadHistory, type HistoryEntry } from './history.js';
import { JobsList, useJobPolling, type TrackedJob } from './JobsList.js';
import type { SparqlVocabulary, SqlResult } from '../../../server/src/contract/index.js';
import { queryApi, rowsToResult, sparqlToResult } from './query-api.js';
import { declaredPrefixes } from './sparql-completion.js';
import { isGroupedAggregate } from './chart-data.js';
import { ResultChart } from './ResultChart.js';
import { ResultsGrid } from './ResultsGrid.js';
import type { EditorEdit } from './SqlEditor.js';
import { SourcesTree } from './SourcesTree.js';
import { tableReferences } from './sql-references.js';
import './query.css';

const SqlEditor = lazy(() => import('./SqlEditor.js'));

type Mode = 'sql' | 'sparql' | 'nl';
const modes: { id: Mode; title: string; placeholder: string }[] = [
  { id: 'sql', title: 'SQL', placeholder: 'SELECT * FROM shop.orders LIMIT 10' },
  { id: 'sparql', title: 'SPARQL', placeholder: 'SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 10' },
  { id: 'nl', title: 'Question', placeholder: 'average order value by region' },
];

const maxJobs = 50;

/** What the result area shows: a result (with the generated SQL or answer of a question), an error, or a run in progress. */
interface Outcome {
  result?: SqlResult;
  answer?: string;
  generatedQuery?: string;
  /** A question's grouped aggregate: its chart is drawn above the rows. */
  chartAlongside?: boolean;
  error?: string;
  running?: boolean;
  source?: string;
}

/** The last outcome, kept while the panel is hidden (only the active panel of a region is mounted). */
let lastOutcome: Outcome = {};

/**
 * The query console: sources sidebar, an editor for SQL (or SPARQL, or a question in words), results
 * as a grid or a chart, async jobs and the history of what was run.
 */
export default function QueryConsole() {
  const { colorScheme, notify } = useWorkbench();
  const { sources, error: sourcesError, catalog, refresh, learn } = useCatalog();
  const [mode, setMode] = usePersistedState<Mode>('query-mode', 'sql');
  const [texts, setTexts] = usePersistedState<Record<Mode, string>>('query-texts', { sql: '', sparql: '', nl: '' });
  const [runAsync, setRunAsync] = usePersistedState('query-async', false);
  const [view, setView] = useState<'grid' | 'chart'>('grid');
  const [side, setSide] = useState<'sources' | 'history' | 'jobs'>('sources');
  const [outcome, setOutcomeState] = useState<Outcome>(() => lastOutcome);
  const setOutcome = useCallback((next: Outcome) => {
    lastOutcome = next;
    setOutcomeState(next);
  }, []);
  const [history, setHistory] = useState<HistoryEntry[]>(loadHistory);
  // Job ids are remembered: the jobs (and their results) live on the server across restarts of either side.
  const [jobs, setJobs] = usePersistedState<TrackedJob[]>('query-jobs', []);
  const text = texts[mode] ?? '';
  useJobPolling(jobs, setJobs);
  const vocabulary = useSparqlVocabulary(mode === 'sparql');
  const sourceNames = catalog.sources;

  // Tables named by earlier successful queries are known again after a restart.
  const learnedFromHistory = useRef(false);
  useEffect(() => {
    if (learnedFromHistory.current || sourceNames.length === 0) return;
    learnedFromHistory.current = true;
    void learn(history.filter((h) => h.kind === 'sql' && h.ok).flatMap((h) => tableReferences(h.query, sourceNames)));
  }, [history, sourceNames, learn]);

  const record = useCallback(
    (entry: Omit<HistoryEntry, 'at'>) => setHistory((h) => addToHistory(h, { ...entry, at: Date.now() })),
    [],
  );

  const run = useCallback(async () => {
    const query = text.trim();
    if (!query) return;
    if (mode === 'sql' && runAsync) {
      try {
        const job = await queryApi.submit(query);
        setJobs((list) => [{ ...job, query }, ...list].slice(0, maxJobs));
        setSide('jobs');
        record({ query, kind: 'sql', ok: true });
        notify(`Query ${job.query_id} submitted`);
      } catch (e) {
        setOutcome({ error: (e as Error).message });
        record({ query, kind: 'sql', ok: false });
      }
      return;
    }
    setOutcome({ running: true });
    const started = performance.now();
    try {
      if (mode === 'sql') {
        const result = await queryApi.sql(query);
        setOutcome({ result });
        record({ query, kind: 'sql', ok: true, rowCount: result.row_count, elapsedMs: result.elapsed_ms });
        void learn(tableReferences(query, sourceNames));
      } else if (mode === 'sparql') {
        const prefixes = { ...vocabulary?.prefixes, ...declaredPrefixes(query) };
        const result = sparqlToResult(await queryApi.sparql(query), Math.round(performance.now() - started), prefixes);
        setOutcome({ result });
        record({ query, kind: 'sparql', ok: true, rowCount: result.row_count, elapsedMs: result.elapsed_ms });
      } else {
        const answer = await queryApi.ask(query);
        const result = rowsToResult(answer.results, Math.round(performance.now() - started));
        setOutcome({
          result,
          answer: answer.answer,
          generatedQuery: answer.generated_query,
          chartAlongside: isGroupedAggregate(result, answer.generated_query),
        });
        record({ query, kind: 'nl', ok: true, rowCount: result.row_count, elapsedMs: result.elapsed_ms });
        void learn(tableReferences(answer.generated_query, sourceNames));
      }
    } catch (e) {
      setOutcome({ error: (e as Error).message });
      record({ query, kind: mode, ok: false });
    }
  }, [text, mode, runAsync, record, learn, notify, sourceNames, setJobs, setOutcome, vocabulary]);

  /** The SQL the SPARQL query translates to, shown above the current result. */
  const explain = useCallback(async () => {
    const query = text.trim();
    if (!query) return;
    try {
      const { sql, translate_ms: ms } = await queryApi.explainSparql(query);
      setOutcome({
        ...lastOutcome,
        error: undefined,
        answer: `Generated SQL (translated in ${ms} ms)`,
        generatedQuery: sql,
      });
    } catch (e) {
      setOutcome({ ...lastOutcome, error: (e as Error).message });
    }
  }, [text, setOutcome]);

  const setText = (value: string) => setTexts((t) => ({ ...t, [mode]: value }));
  /** Switches to `kind` with `query` in its editor (from the history, or a question's generated SQL). */
  const openInEditor = (kind: Mode, query: string) => {
    setMode(kind);
    setTexts((t) => ({ ...t, [kind]: query }));
    if (kind !== 'nl') setEdit({ kind: 'replace', text: query });
  };
  // Each edit is a new object, so the same text can be inserted twice.
  const [edit, setEdit] = useState<EditorEdit>();
  const insert = (snippet: string) => {
    if (mode === 'nl') setText(text ? `${text} ${snippet}` : snippet);
    else setEdit({ kind: 'insert', text: snippet });
  };

  const openJob = async (job: TrackedJob) => {
    setOutcome({ running: true });
    try {
      const result = await queryApi.results(job.query_id);
      setOutcome({ result, source: `Job ${job.query_id}` });
    } catch (e) {
      setOutcome({ error: (e as Error).message });
    }
  };

  const { result } = outcome;
  return (
    <div className="query-console">
      <aside className="query-side">
        <div className="panel-tabs" role="tablist" aria-label="Query sidebar">
          {(['sources', 'history', 'jobs'] as const).map((id) => (
            <button
              key={id}
              type="button"
              role="tab"
              aria-selected={side === id}
              className={`panel-tab${side === id ? ' active' : ''}`}
              onClick={() => setSide(id)}
            >
              {id === 'sources' ? 'Sources' : id === 'history' ? 'History' : 'Jobs'}
              {id === 'jobs' && jobs.length > 0 && <span className="badge">{jobs.length}</span>}
            </button>
          ))}
        </div>
        <div className="panel-scroll">
          {side === 'sources' && (
            <SourcesTree
              sources={sources}
              error={sourcesError}
              catalog={catalog}
              onRefresh={refresh}
              onLearn={learn}
              onInsert={insert}
            />
          )}
          {side === 'history' && (
            <ul className="query-history" aria-label="Query history">
              {history.length === 0 && <li className="placeholder">Nothing run yet.</li>}
              {history.map((h) => (
                <li key={`${h.kind}:${h.at}`}>
                  <button
                    type="button"
                    title="Put this query in the editor"
                    onClick={() => openInEditor(h.kind, h.query)}
                  >
                    <span className={`dot ${h.ok ? 'ok' : 'error'}`} />
                    <span className="history-query">{h.query}</span>
                    <span className="muted">
                      {h.kind.toUpperCase()} · {new Date(h.at).toLocaleTimeString(undefined, { hour12: false })}
                      {h.rowCount !== undefined && ` · ${h.rowCount} rows`}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {side === 'jobs' && <JobsList jobs={jobs} onChange={setJobs} onOpen={(job) => void openJob(job)} />}
        </div>
      </aside>
      <section className="query-main">
        <div className="toolbar">
          <div className="segmented" role="tablist" aria-label="Query language">
            {modes.map((m) => (
              <button
                key={m.id}
                type="button"
                role="tab"
                aria-selected={mode === m.id}
                className={mode === m.id ? 'on' : ''}
                onClick={() => setMode(m.id)}
              >
                {m.title}
              </button>
            ))}
          </div>
          <button
            type="button"
            className="primary"
            onClick={() => void run()}
            disabled={outcome.running || !text.trim()}
            title="Run (Ctrl/Cmd+Enter)"
          >
            {outcome.running ? 'Running…' : 'Run'}
          </button>
          {mode === 'sparql' && (
            <button
              type="button"
              onClick={() => void explain()}
              disabled={!text.trim()}
              title="Show the SQL this query translates to (?explain=true)"
            >
              Show SQL
            </button>
          )}
          {mode === 'sql' && (
            <label title="Submit as an async job (POST /async) and follow it in Jobs">
              <input type="checkbox" checked={runAsync} onChange={(e) => setRunAsync(e.target.checked)} /> Async
            </label>
          )}
          <span className="spacer" />
          {result && (
            <span className="muted query-stats" aria-label="Result statistics">
              {outcome.source ? `${outcome.source} · ` : ''}
              {result.row_count} rows{result.truncated ? ' (truncated)' : ''} · {result.elapsed_ms} ms
            </span>
          )}
          <div className="segmented" role="tablist" aria-label="Result view">
            <button
              type="button"
              role="tab"
              aria-selected={view === 'grid'}
              className={view === 'grid' ? 'on' : ''}
              onClick={() => setView('grid')}
            >
              Grid
            </button>
            <button
              type="button"
              role="tab"
              aria-selected={view === 'chart'}
              className={view === 'chart' ? 'on' : ''}
              onClick={() => setView('chart')}
            >
              Chart
            </button>
          </div>
        </div>
        <div className="query-editor" data-mode={mode}>
          {mode === 'nl' ? (
            <textarea
              aria-label="Question"
              value={text}
              placeholder={modes[2].placeholder}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  void run();
                }
              }}
            />
          ) : (
            <Suspense fallback={<div className="placeholder">Loading editor…</div>}>
              <SqlEditor
                initialValue={text}
                edit={edit}
                language={mode}
                catalog={catalog}
                vocabulary={vocabulary}
                theme={colorScheme}
                onChange={setText}
                onRun={() => void run()}
              />
            </Suspense>
          )}
          {!text && mode !== 'nl' && (
            <div className="query-placeholder">
              {modes.find((m) => m.id === mode)?.placeholder} — Ctrl/Cmd+Enter runs
            </div>
          )}
        </div>
        <div className="query-output">
          {outcome.error && (
            <div className="banner error" role="alert">
              {outcome.error}
            </div>
          )}
          {outcome.answer && (
            <div className="banner" role="note">
              <strong>{outcome.answer}</strong>
              {outcome.generatedQuery && <pre className="generated-query">{outcome.generatedQuery}</pre>}
              {outcome.generatedQuery && mode === 'nl' && (
                <button
                  type="button"
                  onClick={() => openInEditor('sql', outcome.generatedQuery!)}
                  title="Put this SQL in the SQL tab to edit and run it"
                >
                  Edit in SQL
                </button>
              )}
            </div>
          )}
          {result && outcome.chartAlongside && view === 'grid' && <ResultChart result={result} />}
          {result &&
            (view === 'grid' ? <ResultsGrid result={result} onNotify={notify} /> : <ResultChart result={result} />)}
          {!result && !outcome.error && !outcome.running && (
            <div className="placeholder">Run a query to see its rows here.</div>
          )}
        </div>
      </section>
    </div>
  );
}

/** The SPARQL vocabulary (prefixes, classes, properties), fetched the first time it is `wanted`; undefined until then or when it fails. */
function useSparqlVocabulary(wanted: boolean): SparqlVocabulary | undefined {
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
