import { lazy, Suspense } from 'react';
import type { SparqlVocabulary } from '../../../server/src/contract/index.js';
import type { Catalog } from './completion.js';
import { queryModes, type QueryMode } from './query-runs.js';
import type { EditorEdit, EditorErrorMark } from './SqlEditor.js';

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
  onText(text: string): void;
  onRun(): void;
}

/** Where the query is written: Monaco for SQL and SPARQL (loaded on demand), a text area for a question. */
export function QueryInput(props: QueryInputProps) {
  const { mode, text, edit, catalog, vocabulary, errorMark, theme, onText, onRun } = props;
  const placeholder = queryModes.find((m) => m.id === mode)?.placeholder;
  return (
    <div className="query-editor" data-mode={mode}>
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
        <Suspense fallback={<div className="placeholder">Loading editor…</div>}>
          <SqlEditor
            initialValue={text}
            edit={edit}
            language={mode}
            catalog={catalog}
            vocabulary={vocabulary}
            errorMark={errorMark}
            theme={theme}
            onChange={onText}
            onRun={onRun}
          />
        </Suspense>
      )}
      {!text && mode !== 'nl' && <div className="query-placeholder">{placeholder} — Ctrl/Cmd+Enter runs</div>}
    </div>
  );
}
