import { useEffect, useState, type KeyboardEvent } from 'react';
import type { ResultPage, SqlResult } from '../../../server/src/contract/index.js';
import { queryApi } from './query-api.js';
import { cancelRun, jobPageSize, type Outcome, type ScriptStep } from './query-runs.js';
import { CandidatePicker, SynonymOffer } from './QuestionPick.js';
import { PlanTree } from './PlanTree.js';
import { planOf } from './query-plan.js';
import { ResultChart } from './ResultChart.js';
import { ResultsGrid, type StoredPages } from './ResultsGrid.js';
import type { ResultView } from './QueryToolbar.js';
import './results.css';

export interface QueryOutputProps {
  outcome: Outcome;
  /** The text changed since the outcome's run: its error is shown as stale. */
  stale?: boolean;
  /** The script statement whose tab is shown (see {@link shownStep}), and the reader's choice of another. */
  step?: number;
  onStep?(index: number): void;
  view: ResultView;
  /** Offer to edit a question's generated SQL in the SQL tab. */
  onEditSql?(sql: string): void;
  /** Ask an ambiguous question again with one of its candidates. */
  onPick?(candidate: string): void;
  onNotify(message: string): void;
}

/**
 * The result on show, and for an async job's stored result the pages read from the server: the outcome's own
 * result (the job's first page) until the reader moves to another page.
 */
function useShownResult(outcome: Outcome, onNotify: (message: string) => void) {
  const [page, setPage] = useState<{ of: SqlResult; result: ResultPage & { limit: number } }>();
  const [loading, setLoading] = useState(false);
  const { result, jobId } = outcome;
  // A page read for an earlier outcome is not this one's.
  const shown: (SqlResult & Partial<ResultPage> & { limit?: number }) | undefined =
    page && page.of === result ? page.result : result;
  if (!result || !jobId || !shown || shown.total_row_count === undefined) return { result: shown };
  const onPage = (offset: number, limit: number) => {
    setLoading(true);
    queryApi
      .results(jobId, offset, limit)
      .then(
        (next) => setPage({ of: result, result: { ...next, limit } }),
        (e: Error) => onNotify(`The page could not be read: ${e.message}`),
      )
      .finally(() => setLoading(false));
  };
  const stored: StoredPages = {
    offset: shown.offset ?? 0,
    limit: shown.limit ?? jobPageSize,
    total: shown.total_row_count,
    loading,
    onPage,
  };
  return { result: shown, stored };
}

/**
 * The outcome of the last run: while it runs, the elapsed time and Cancel (Esc); a script's statements as tabs, one
 * result each; else its error, its answer or generated SQL, and its rows as a grid or a chart.
 */
export function QueryOutput(props: QueryOutputProps) {
  const { outcome } = props;
  const { runId, script } = outcome;
  const cancel = () => runId !== undefined && cancelRun(runId);
  // Esc anywhere in the output area cancels the run in progress (the Cancel button need not have the focus).
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && outcome.running && cancel()) e.stopPropagation();
  };
  return (
    <div className="query-output" onKeyDown={onKeyDown}>
      {outcome.running && (
        <div className="banner running" role="status">
          Running… <Elapsed since={outcome.startedAt} />{' '}
          {runId !== undefined && (
            <button type="button" onClick={cancel} title="Stop the query (Esc)">
              Cancel
            </button>
          )}
        </div>
      )}
      {script ? (
        <ScriptTabs {...props} steps={script} />
      ) : (
        <OutcomeView {...props} empty="Run a query to see its rows here." />
      )}
    </div>
  );
}

/** Seconds since `since`, counted up each tenth of a second. */
function Elapsed({ since }: { since?: number }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, []);
  if (since === undefined) return null;
  return <span className="elapsed">{(Math.max(0, now - since) / 1000).toFixed(1)} s</span>;
}

/**
 * The script statement to show: the reader's `chosen` one, else the one that failed or runs (what the reader waits
 * for), else the first.
 */
export function shownStep(steps: ScriptStep[], chosen: number | undefined): number {
  const notable = steps.findIndex((step) => step.outcome.error || step.outcome.running);
  return Math.min(chosen ?? (notable >= 0 ? notable : 0), steps.length - 1);
}

/**
 * The script statement shown for `outcome` and the toolbar's outcome (a script's: the shown statement's, running while
 * the script runs), and whether the text changed since; the reader's choice holds for the script it was made in.
 */
export function useShownStep(outcome: Outcome, text: string) {
  const [chosen, setChosen] = useState<{ of: ScriptStep[]; index: number }>();
  const { script, ranText } = outcome;
  // An error of text since changed is stale: shown as such, and no longer marked in the editor.
  const stale = ranText !== undefined && ranText !== text;
  if (!script) return { shown: outcome, onStep: () => undefined, stale };
  const step = shownStep(script, chosen?.of === script ? chosen.index : undefined);
  const onStep = (index: number) => setChosen({ of: script, index });
  return { step, onStep, shown: { ...script[step].outcome, running: outcome.running }, stale };
}

/** A script's statements as tabs (arrow keys, Home and End move between them), one result each. */
function ScriptTabs(props: QueryOutputProps & { steps: ScriptStep[] }) {
  const { steps, onStep = () => undefined } = props;
  const shown = props.step ?? shownStep(steps, undefined);
  const move = (e: KeyboardEvent, index: number) => {
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: steps.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const target = (next + steps.length) % steps.length;
    onStep(target);
    document.getElementById(`script-tab-${target}`)?.focus();
  };
  return (
    <>
      <div className="script-tabs" role="tablist" aria-label="Statements of the script">
        {steps.map((step, i) => (
          <button
            key={i}
            id={`script-tab-${i}`}
            type="button"
            role="tab"
            aria-selected={i === shown}
            aria-controls="script-panel"
            tabIndex={i === shown ? 0 : -1}
            className={stepState(step)}
            title={step.statement}
            onClick={() => onStep(i)}
            onKeyDown={(e) => move(e, i)}
          >
            {i + 1}. {stepLabel(step)}
          </button>
        ))}
      </div>
      <div id="script-panel" role="tabpanel" aria-labelledby={`script-tab-${shown}`} className="script-panel">
        <OutcomeView
          {...props}
          outcome={steps[shown].outcome}
          empty="Not run: an earlier statement failed or the script was cancelled."
        />
      </div>
    </>
  );
}

function stepState({ outcome }: ScriptStep): string {
  if (outcome.error) return 'failed';
  if (outcome.result) return 'done';
  return outcome.running ? 'running' : 'not-run';
}

/** A tab's label: what the statement gave. */
function stepLabel({ outcome }: ScriptStep): string {
  if (outcome.error) return 'Error';
  const rows = outcome.result?.row_count;
  if (rows !== undefined) return rows === 1 ? '1 row' : `${rows} rows`;
  if (outcome.running) return 'Running';
  return outcome.cancelled ? 'Cancelled' : 'Not run';
}

/** One outcome: its error, its answer or generated SQL, and its rows as a grid or a chart. */
function OutcomeView(props: QueryOutputProps & { empty: string }) {
  const { outcome, stale, view, onEditSql, onPick, onNotify, empty } = props;
  const { generatedQuery } = outcome;
  const { result, stored } = useShownResult(outcome, onNotify);
  // An EXPLAIN's answer is read as a plan, not as its one row of JSON.
  const plan = result && planOf(result);
  return (
    <>
      {outcome.cancelled && (
        <div className="banner" role="status">
          The query was cancelled.
        </div>
      )}
      {outcome.error && (
        <div className={`banner error${stale ? ' stale' : ''}`} role="alert">
          {stale && <strong className="stale-note">Stale (the query changed since it ran): </strong>}
          {outcome.error}
          {outcome.candidates && onPick && <CandidatePicker candidates={outcome.candidates} onPick={onPick} />}
        </div>
      )}
      {outcome.answer && (
        <div className="banner" role="note">
          <strong>{outcome.answer}</strong>
          {generatedQuery && <pre className="generated-query">{generatedQuery}</pre>}
          {generatedQuery && onEditSql && (
            <button
              type="button"
              onClick={() => onEditSql(generatedQuery)}
              title="Put this SQL in the SQL tab to edit and run it"
            >
              Edit in SQL
            </button>
          )}
          {outcome.synonyms?.map((synonym) => (
            <SynonymOffer key={`${synonym.means}=${synonym.value}`} synonym={synonym} />
          ))}
        </div>
      )}
      {result && outcome.chartAlongside && view === 'grid' && <ResultChart result={result} />}
      {plan && <PlanTree plan={plan} />}
      {result &&
        !plan &&
        (view === 'grid' ? (
          <ResultsGrid result={result} onNotify={onNotify} stored={stored} />
        ) : (
          <ResultChart result={result} />
        ))}
      {!result && !outcome.error && !outcome.running && !outcome.cancelled && (
        <div className="placeholder">{empty}</div>
      )}
    </>
  );
}
