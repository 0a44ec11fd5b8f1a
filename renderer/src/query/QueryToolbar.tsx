import type { Outcome, QueryMode } from './query-runs.js';
import { queryModes } from './query-runs.js';

/** How a result is shown. */
export type ResultView = 'grid' | 'chart';

const views: { id: ResultView; title: string }[] = [
  { id: 'grid', title: 'Grid' },
  { id: 'chart', title: 'Chart' },
];

/** A row of mutually exclusive buttons (a tab list) with the chosen one pressed. */
function Segmented<T extends string>(props: {
  label: string;
  options: { id: T; title: string }[];
  value: T;
  onChange(value: T): void;
}) {
  return (
    <div className="segmented" role="tablist" aria-label={props.label}>
      {props.options.map((option) => (
        <button
          key={option.id}
          type="button"
          role="tab"
          aria-selected={props.value === option.id}
          className={props.value === option.id ? 'on' : ''}
          onClick={() => props.onChange(option.id)}
        >
          {option.title}
        </button>
      ))}
    </div>
  );
}

export interface QueryToolbarProps {
  mode: QueryMode;
  onMode(mode: QueryMode): void;
  /** Whether there is a query to run. */
  hasQuery: boolean;
  outcome: Outcome;
  onRun(): void;
  onExplain(): void;
  runAsync: boolean;
  onRunAsync(runAsync: boolean): void;
  view: ResultView;
  onView(view: ResultView): void;
}

/** The language, Run (Show SQL for SPARQL, Async for SQL), the result's statistics and its view. */
export function QueryToolbar(props: QueryToolbarProps) {
  const { mode, outcome, hasQuery } = props;
  const { result } = outcome;
  return (
    <div className="toolbar">
      <Segmented label="Query language" options={queryModes} value={mode} onChange={props.onMode} />
      <button
        type="button"
        className="primary"
        onClick={props.onRun}
        disabled={outcome.running || !hasQuery}
        title="Run (Ctrl/Cmd+Enter)"
      >
        {outcome.running ? 'Running…' : 'Run'}
      </button>
      {mode === 'sparql' && (
        <button
          type="button"
          onClick={props.onExplain}
          disabled={!hasQuery}
          title="Show the SQL this query translates to (?explain=true)"
        >
          Show SQL
        </button>
      )}
      {mode === 'sql' && (
        <label title="Submit as an async job (POST /async) and follow it in Jobs">
          <input type="checkbox" checked={props.runAsync} onChange={(e) => props.onRunAsync(e.target.checked)} /> Async
        </label>
      )}
      <span className="spacer" />
      {result && (
        <span className="muted query-stats" aria-label="Result statistics">
          {outcome.source ? `${outcome.source} · ` : ''}
          {result.row_count} rows{result.truncated ? ' (truncated)' : ''} · {result.elapsed_ms} ms
        </span>
      )}
      <Segmented label="Result view" options={views} value={props.view} onChange={props.onView} />
    </div>
  );
}
