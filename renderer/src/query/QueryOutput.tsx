import type { Outcome } from './query-runs.js';
import { CandidatePicker, SynonymOffer } from './QuestionPick.js';
import { ResultChart } from './ResultChart.js';
import { ResultsGrid } from './ResultsGrid.js';
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

/** The outcome of the last run: its error, its answer or generated SQL, and its rows as a grid or a chart. */
export function QueryOutput({ outcome, view, onEditSql, onPick, onNotify }: QueryOutputProps) {
  const { result, generatedQuery } = outcome;
  return (
    <div className="query-output">
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
        (view === 'grid' ? <ResultsGrid result={result} onNotify={onNotify} /> : <ResultChart result={result} />)}
      {!result && !outcome.error && !outcome.running && (
        <div className="placeholder">Run a query to see its rows here.</div>
      )}
    </div>
  );
}
