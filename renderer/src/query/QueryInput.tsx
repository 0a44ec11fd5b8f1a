import { lazy } from 'react';
import { Loadable } from '../platform/Loadable.js';
import type { SparqlVocabulary } from '../../../server/src/contract/index.js';
import type { Catalog } from '../editor/languages/completion.js';
import { queryModes, type QueryMode } from './query-runs.js';
import type { EditorEdit, EditorErrorMark } from './SqlEditor.js';
import type { RunRequest } from './sql-statements.js';

const SqlEditor = lazy(() => import('./SqlEditor.js'));

export interface QueryInputProps {
  mode: QueryMode;
  text: string;
  /** A change from outside the editor (history, a name from the sidebar). */
  edit?: EditorEdit;
  catalog: Catalog;
  vocabulary?: SparqlVocabulary;
  /** The last run's error in this text, when the server said where. */
  errorMark?: EditorErrorMark;
  theme: 'light' | 'dark';
  /** The query tab whose editor this is. */
  tabId: string;
  wrap: boolean;
  /** The editor's height above the results. */
  height: number;
  onText(text: string): void;
  /** A question runs whole (no request); a query runs what the request picks. */
  onRun(request?: RunRequest): void;
  onNotify(message: string): void;
}

/** Where the query is written: Monaco for SQL and SPARQL (loaded on demand), a text area for a question. */
export function QueryInput(props: QueryInputProps) {
  const { mode, text, edit, catalog, vocabulary, errorMark, theme, tabId, wrap, height, onText, onRun, onNotify } =
    props;
  const placeholder = queryModes.find((m) => m.id === mode)?.placeholder;
  return (
    <div className="query-editor" data-mode={mode} style={{ height }}>
      {mode === 'nl' ? (
        <textarea
          aria-label="Question"
          value={text}
          placeholder={placeholder}
          onChange={(e) => onText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              onRun();
            }
          }}
        />
      ) : (
        <Loadable what="the editor">
          <SqlEditor
            initialValue={text}
            edit={edit}
            language={mode}
            catalog={catalog}
            vocabulary={vocabulary}
            errorMark={errorMark}
            theme={theme}
            modelKey={tabId}
            wrap={wrap}
            onChange={onText}
            onRun={onRun}
            onNotify={onNotify}
          />
        </Loadable>
      )}
      {!text && mode !== 'nl' && (
        <div className="query-placeholder">
          {placeholder} — Ctrl/Cmd+Enter runs the statement, Ctrl/Cmd+Shift+Enter the script
        </div>
      )}
    </div>
  );
}
