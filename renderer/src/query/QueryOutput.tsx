import { useState, type KeyboardEvent } from 'react';
import type { ResultPage, SqlResult } from '../../../server/src/contract/index.js';
import { queryApi } from './query-api.js';
import { cancelRun, jobPageSize, type Outcome } from './query-runs.js';
import { CandidatePicker, SynonymOffer } from './QuestionPick.js';
import { ResultChart } from './ResultChart.js';
import { ResultsGrid, type StoredPages } from './ResultsGrid.js';
import type { ResultView } from './QueryToolbar.js';

export interface QueryOutputProps {
  outcome: Outcome;
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

/** The outcome of the last run: its error, its answer or generated SQL, and its rows as a grid or a chart. */
export function QueryOutput({ outcome, view, onEditSql, onPick, onNotify }: QueryOutputProps) {
  const { generatedQuery, runId } = outcome;
  const { result, stored } = useShownResult(outcome, onNotify);
  const cancel = () => runId !== undefined && cancelRun(runId);
  // Esc anywhere in the output area cancels the run in progress (the Cancel button need not have the focus).
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && outcome.running && cancel()) e.stopPropagation();
  };
  return (
    <div className="query-output" onKeyDown={onKeyDown}>
      {outcome.running && (
        <div className="banner running" role="status">
          Running…{' '}
          {runId !== undefined && (
            <button type="button" onClick={cancel} title="Stop the query (Esc)">
              Cancel
            </button>
          )}
        </div>
      )}
      {outcome.cancelled && (
        <div className="banner" role="status">
          The query was cancelled.
        </div>
      )}
      {outcome.error && (
        <div className="banner error" role="alert">
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
      {result &&
        (view === 'grid' ? (
          <ResultsGrid result={result} onNotify={onNotify} stored={stored} />
        ) : (
          <ResultChart result={result} />
        ))}
      {!result && !outcome.error && !outcome.running && !outcome.cancelled && (
        <div className="placeholder">Run a query to see its rows here.</div>
      )}
    </div>
  );
}
