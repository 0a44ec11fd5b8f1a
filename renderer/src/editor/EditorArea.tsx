import { lazy, Suspense, useEffect } from 'react';
import type { WorkbenchDiagnostic } from '../../../server/src/contract/index.js';
import { isDirty, type DocumentsState } from '../state/documents.js';
import type { RevealRequest } from './MonacoEditor.js';

// Monaco (and its languages) is the largest part of the UI: it loads after the shell is up, starting
// right away rather than when the first file opens.
const loadMonacoEditor = () => import('./MonacoEditor.js');
const MonacoEditor = lazy(loadMonacoEditor);

export interface EditorAreaProps {
  tabs: string[];
  active?: string;
  documents: DocumentsState;
  diagnostics: WorkbenchDiagnostic[];
  theme: 'light' | 'dark';
  reveal?: RevealRequest;
  onActivate(path: string): void;
  onClose(path: string): void;
  onChange(path: string, text: string): void;
  onSave(path: string): void;
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Editor tabs (with the unsaved-changes marker) over one Monaco editor. */
export function EditorArea(props: EditorAreaProps) {
  const { tabs, active, documents } = props;
  const doc = active ? documents.documents[active] : undefined;
  const errorsByPath = new Set(props.diagnostics.filter((d) => d.severity === 'error').map((d) => d.path));
  useEffect(() => {
    void loadMonacoEditor();
  }, []);

  return (
    <div className="editor-area">
      <div className="tabs" role="tablist" aria-label="Open files">
        {tabs.map((path) => {
          const dirty = isDirty(documents.documents[path]);
          return (
            <div
              key={path}
              role="tab"
              aria-selected={path === active}
              className={['tab', path === active && 'active', dirty && 'dirty', errorsByPath.has(path) && 'has-errors']
                .filter(Boolean)
                .join(' ')}
              title={path}
              data-path={path}
              onClick={() => props.onActivate(path)}
              onAuxClick={(e) => e.button === 1 && props.onClose(path)}
            >
              <span className="tab-name">{fileName(path)}</span>
              {dirty && <span className="dirty-dot" aria-label="unsaved changes" />}
              <button
                type="button"
                className="tab-close"
                aria-label={`Close ${fileName(path)}`}
                onClick={(e) => {
                  e.stopPropagation();
                  props.onClose(path);
                }}
              >
                ×
              </button>
            </div>
          );
        })}
      </div>
      <div className="editor-host">
        {!active && (
          <div className="placeholder welcome">
            <h2>Adaptive Workbench</h2>
            <p>Open a spec or handler from the explorer, or create one with Alt+N.</p>
            <p>Saving a file reloads the gateway; the API docs, problems, logs and requests panels follow.</p>
          </div>
        )}
        {active && doc?.status === 'loading' && <div className="placeholder">Loading {active}…</div>}
        {active && doc?.status === 'error' && (
          <div className="banner error">
            Cannot open {active}: {doc.error}
          </div>
        )}
        {active && doc && (doc.status === 'ready' || doc.status === 'saving') && (
          <Suspense fallback={<div className="placeholder">Loading editor…</div>}>
            <MonacoEditor
              path={active}
              initialText={doc.text}
              theme={props.theme}
              openPaths={tabs}
              diagnostics={props.diagnostics}
              reveal={props.reveal}
              onChange={props.onChange}
              onSave={props.onSave}
            />
          </Suspense>
        )}
        {doc?.error && doc.status !== 'error' && <div className="banner error save-error">Not saved: {doc.error}</div>}
      </div>
    </div>
  );
}
