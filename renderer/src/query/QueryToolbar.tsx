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
  /** The kinds offered: a saved query file keeps the kind of its extension. */
  modes: QueryMode[];
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
  /** The query editor's word wrap (Alt+Z). */
  wrap: boolean;
  onWrap(): void;
  /** The results fill the tab. */
  maximised: boolean;
  onMaximise(): void;
  /** Saves an unsaved query tab as a file; absent for a saved one (Ctrl+S saves it). */
  onSaveAs?(): void;
}

/** A button that stays pressed while what it toggles is on. */
function Toggle(props: { on: boolean; title: string; text: string; onClick(): void }) {
  return (
    <button
      type="button"
      className={`toggle${props.on ? ' on' : ''}`}
      aria-pressed={props.on}
      title={props.title}
      onClick={props.onClick}
    >
      {props.text}
    </button>
  );
}

/**
 * The language, Run (Show SQL for SPARQL, Async for SQL), Save as, word wrap, the result's statistics, its
 * view and the maximise toggle of the results.
 */
export function QueryToolbar(props: QueryToolbarProps) {
  const { mode, outcome, hasQuery } = props;
  const { result } = outcome;
  const options = queryModes.filter((m) => props.modes.includes(m.id));
  return (
    <div className="toolbar">
      <Segmented label="Query language" options={options} value={mode} onChange={props.onMode} />
      <button
        type="button"
        className="primary"
        onClick={props.onRun}
        disabled={outcome.running || !hasQuery}
        title="Run every statement (Ctrl/Cmd+Shift+Enter); Ctrl/Cmd+Enter runs the selection or statement at the cursor"
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
      {props.onSaveAs && (
        <button
          type="button"
          onClick={props.onSaveAs}
          disabled={mode === 'nl'}
          title={
            mode === 'nl' ? 'A question is not saved; its SQL can be' : 'Save as a file in query/saved/ (Ctrl/Cmd+S)'
          }
        >
          Save query as…
        </button>
      )}
      <Toggle on={props.wrap} title="Word wrap (Alt+Z)" text="Wrap" onClick={props.onWrap} />
      <span className="spacer" />
      {result && (
        <span className="muted query-stats" aria-label="Result statistics">
          {outcome.source ? `${outcome.source} · ` : ''}
          {result.row_count} rows{result.truncated ? ' (truncated)' : ''} · {result.elapsed_ms} ms
        </span>
      )}
      <Segmented label="Result view" options={views} value={props.view} onChange={props.onView} />
      <Toggle
        on={props.maximised}
        title={props.maximised ? 'Restore the editor above the results' : 'Maximise the results to fill the tab'}
        text={props.maximised ? 'Restore' : 'Maximise'}
        onClick={props.onMaximise}
      />
    </div>
  );
}
