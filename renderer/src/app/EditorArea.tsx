import { lazy, useState } from 'react';
import { Loadable } from '../platform/Loadable.js';
import type { WorkbenchDiagnostic } from '../../../server/src/contract/index.js';
import { isQueryTab, isQueryTabId, type QueryTab as UnsavedQuery } from '../query/tabs/query-tabs.js';
import { isDirty, type DocumentsState } from '../state/documents.js';
import { DiskBanner } from '../editor/DiskBanner.js';
import { preloadedLazy } from '../editor/preloaded-lazy.js';
import type { RevealRequest } from '../editor/MonacoEditor.js';
import '../query/tabs/query-tabs.css';
import './editor-area.css';

// Monaco (and its languages) is the largest part of the UI and what the first view needs most: it starts
// loading when the page starts, beside the workspace listing, rather than when the first file opens.
const MonacoEditor = preloadedLazy(() => import('../editor/MonacoEditor.js'));
// The diff editor only when a conflict is compared.
const DiskDiff = lazy(() => import('../editor/DiskDiff.js'));
// A query tab's console (sources, editor, results) when the first query tab shows.
const QueryTab = lazy(() => import('../query/tabs/QueryTab.js'));

export interface EditorAreaProps {
  tabs: string[];
  active?: string;
  documents: DocumentsState;
  /** The unsaved query tabs (`query:3`), by id: their titles and kinds. */
  queryTabs: Record<string, UnsavedQuery>;
  diagnostics: WorkbenchDiagnostic[];
  theme: 'light' | 'dark';
  reveal?: RevealRequest;
  onActivate(path: string): void;
  onClose(path: string): void;
  onChange(path: string, text: string): void;
  onSave(path: string): void;
  /** Settles a change on disk under unsaved changes. */
  onResolve(path: string, choice: 'mine' | 'disk'): void;
  onDismissRestored(path: string): void;
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A tab's name: a file's name, or an unsaved query's title. */
function tabName(id: string, queryTabs: Record<string, UnsavedQuery>): string {
  return isQueryTabId(id) ? (queryTabs[id]?.title ?? id) : fileName(id);
}

/** The tab strip: one tab per open file, with the unsaved-changes marker and the has-errors mark. */
function EditorTabs(props: EditorAreaProps) {
  const { tabs, active, documents, queryTabs } = props;
  const errorsByPath = new Set(props.diagnostics.filter((d) => d.severity === 'error').map((d) => d.path));
  return (
    <div className="tabs" role="tablist" aria-label="Open files">
      {tabs.map((path) => {
        const dirty = isDirty(documents.documents[path]);
        const name = tabName(path, queryTabs);
        const kind = queryTabs[path]?.kind;
        return (
          <div
            key={path}
            role="tab"
            aria-selected={path === active}
            className={[
              'tab',
              path === active && 'active',
              dirty && 'dirty',
              errorsByPath.has(path) && 'has-errors',
              isQueryTab(path) && 'query-tab',
            ]
              .filter(Boolean)
              .join(' ')}
            title={path}
            data-path={path}
            onClick={() => props.onActivate(path)}
            onAuxClick={(e) => e.button === 1 && props.onClose(path)}
          >
            <span className="tab-name">{name}</span>
            {kind && (
              <span className="tab-kind" aria-hidden="true">
                {kind === 'nl' ? '?' : kind.toUpperCase()}
              </span>
            )}
            {dirty && <span className="dirty-dot" role="img" aria-label="unsaved changes" />}
            {/* For the mouse only, not a control inside the tab (nested-interactive, axe): keyboard and
                screen-reader users close with Alt+W or the palette. */}
            <span
              className="tab-close"
              aria-hidden="true"
              title={`Close ${name}`}
              onClick={(e) => {
                e.stopPropagation();
                props.onClose(path);
              }}
            >
              ×
            </span>
          </div>
        );
      })}
    </div>
  );
}

/** Editor tabs (with the unsaved-changes marker) over one Monaco editor. */
export function EditorArea(props: EditorAreaProps) {
  const { tabs, active, documents } = props;
  const doc = active ? documents.documents[active] : undefined;
  const [comparing, setComparing] = useState<string>();
  const showDiff = active !== undefined && comparing === active && doc?.conflict?.disk !== undefined;
  const ready = doc?.status === 'ready' || doc?.status === 'saving';
  // An unsaved query needs no document; a saved one shows once its file is read.
  const showQuery = isQueryTabId(active) || (!showDiff && isQueryTab(active) && ready);

  return (
    <div className="editor-area">
      <EditorTabs {...props} />
      {active && doc && (
        <DiskBanner
          doc={doc}
          comparing={showDiff}
          onCompare={(show) => setComparing(show ? active : undefined)}
          onResolve={(choice) => {
            setComparing(undefined);
            props.onResolve(active, choice);
          }}
          onDismissRestored={() => props.onDismissRestored(active)}
          onClose={() => props.onClose(active)}
        />
      )}
      <div className="editor-host">
        {!active && (
          <div className="placeholder welcome">
            <h2>Adaptive Workbench</h2>
            <p>Open a spec or handler from the explorer, or create one with Alt+N.</p>
            <p>New query opens a SQL query in a tab (Alt+Q; Alt+Shift+Q for SPARQL, Alt+Shift+N for a question).</p>
            <p>Saving a file reloads the gateway; the API docs, problems, logs and requests panels follow.</p>
          </div>
        )}
        {active && doc?.status === 'loading' && <div className="placeholder">Loading {active}…</div>}
        {active && doc?.status === 'error' && (
          <div className="banner error">
            Cannot open {active}: {doc.error}
          </div>
        )}
        {showDiff && (
          <Loadable what="the compare view">
            <DiskDiff path={active} disk={doc.conflict?.disk ?? ''} mine={doc.text} theme={props.theme} />
          </Loadable>
        )}
        {active && showQuery && (
          <Loadable what="the query console">
            <QueryTab key={active} id={active} />
          </Loadable>
        )}
        {!showDiff && !isQueryTab(active) && active && ready && (
          <Loadable what="the editor">
            <MonacoEditor
              path={active}
              initialText={doc.text}
              revision={doc.revision}
              theme={props.theme}
              openPaths={tabs}
              diagnostics={props.diagnostics}
              reveal={props.reveal}
              onChange={props.onChange}
              onSave={props.onSave}
            />
          </Loadable>
        )}
        {doc?.error && doc.status !== 'error' && <div className="banner error save-error">Not saved: {doc.error}</div>}
      </div>
    </div>
  );
}
