import { useEffect, useRef, useState } from 'react';
import { Splitter } from '../platform/Splitter.js';
import { useSessionState, useWorkbench } from '../platform/workbench-context.js';
import { usePersistedState } from '../state/persisted.js';
import { useCatalog } from './catalog-store.js';
import { QueryInput, type QueryInputProps } from './QueryInput.js';
import { QueryOutput, useShownStep } from './QueryOutput.js';
import { useQueryRuns, useSparqlVocabulary, type Outcome, type QueryMode } from './query-runs.js';
import { QuerySidebar, type SidebarTab } from './QuerySidebar.js';
import { QueryToolbar, type ResultView } from './QueryToolbar.js';
import type { EditorEdit, EditorErrorMark } from './SqlEditor.js';
import { savingKey, useQueryCommands } from './tabs/query-commands.js';
import { SaveQueryPrompt } from './tabs/SaveQueryForm.js';
import { useQueryTabs, useQueryTabsStore } from './tabs/query-tabs-context.js';
import './query.css';

const allModes: QueryMode[] = ['sql', 'sparql', 'nl'];

export interface QueryConsoleProps {
  /** The query tab: its editor model is its own. */
  id: string;
  kind: QueryMode;
  text: string;
  /** A saved query file keeps the kind of its extension. */
  kindLocked?: boolean;
  /** Counts replacements of the text from outside the editor (the file reloaded from disk). */
  revision?: number;
  onKind(kind: QueryMode): void;
  onText(text: string): void;
  /** Saves an unsaved tab as the file `name` (under query/saved/); resolves true when saved. */
  onSaveAs?(name: string): Promise<boolean>;
  /** The file name offered when saving. */
  suggestedName?: string;
}

/**
 * A query tab's console: sources sidebar, an editor for SQL (or SPARQL, or a question in words) above a
 * splitter, and the results as a grid or a chart, which can be maximised to fill the tab; async jobs and
 * the history of what was run.
 */
export default function QueryConsole({ id, kind, text, kindLocked, revision, ...props }: QueryConsoleProps) {
  const { colorScheme, notify } = useWorkbench();
  const { sources, error: sourcesError, catalog, refresh, learn } = useCatalog();
  const { wrap } = useQueryTabs();
  const store = useQueryTabsStore();
  const { newQuery } = useQueryCommands();
  const [runAsync, setRunAsync] = usePersistedState('query-async', false);
  const [view, setView] = useState<ResultView>('grid');
  const [tab, setTab] = useState<SidebarTab>('sources');
  const [maximised, setMaximised] = useSessionState('query-maximised', false);
  const [, setNaming] = useSessionState(savingKey, false);
  const vocabulary = useSparqlVocabulary(kind === 'sparql');
  const onSubmitted = () => setTab('jobs');
  const runs = useQueryRuns({ mode: kind, text, runAsync, vocabulary, catalog, learn, onSubmitted });
  const { step, onStep, shown, stale } = useShownStep(runs.outcome, text);
  const { edit, setEdit, openInEditor, insert } = useEditorFeed({ kind, text, kindLocked, ...props });
  useReloadedText(text, revision, setEdit);

  return (
    <div className={`query-console${maximised ? ' maximised' : ''}`}>
      {!maximised && (
        <QuerySidebar
          tab={tab}
          onTab={setTab}
          sources={sources}
          sourcesError={sourcesError}
          catalog={catalog}
          onRefreshSources={refresh}
          onLearn={learn}
          onInsert={insert}
          history={runs.history}
          onOpenQuery={openInEditor}
          jobs={runs.jobs}
          onJobsChange={runs.setJobs}
          onOpenJob={(job) => void runs.openJob(job)}
        />
      )}
      <section className="query-main">
        <QueryToolbar
          mode={kind}
          modes={kindLocked ? [kind] : allModes}
          onMode={props.onKind}
          hasQuery={text.trim() !== ''}
          outcome={shown}
          onRun={() => void runs.run()}
          onExplain={() => void runs.explain()}
          runAsync={runAsync}
          onRunAsync={setRunAsync}
          view={view}
          onView={setView}
          wrap={wrap}
          onWrap={() => store.toggleWrap()}
          maximised={maximised}
          onMaximise={() => setMaximised((m) => !m)}
          onSaveAs={props.onSaveAs && (() => setNaming(true))}
        />
        {props.onSaveAs && <SaveQueryPrompt kind={kind} suggested={props.suggestedName} onSave={props.onSaveAs} />}
        {!maximised && (
          <QueryEditorPane
            {...{ id, kind, text, edit, catalog, vocabulary }}
            errorMark={stale ? undefined : errorMarkOf(runs.outcome, kind)}
            theme={colorScheme}
            onText={props.onText}
            onRun={(request) => void runs.run(request)}
            onNotify={notify}
          />
        )}
        <QueryOutput
          outcome={runs.outcome}
          stale={stale}
          step={step}
          onStep={onStep}
          view={view}
          onEditSql={kind === 'nl' ? (sql) => newQuery('sql', sql) : undefined}
          onPick={kind === 'nl' ? (candidate) => void runs.pick(candidate) : undefined}
          onNotify={notify}
        />
      </section>
    </div>
  );
}

/** Where the editor of `kind` marks the run's error (of the script statement that failed, for a script). */
function errorMarkOf(outcome: Outcome, kind: QueryMode): EditorErrorMark | undefined {
  const { errorAt } = outcome;
  if (errorAt?.mode !== kind) return undefined;
  const message = outcome.error ?? outcome.script?.find((step) => step.outcome.error)?.outcome.error ?? '';
  return { ...errorAt, message };
}

/** The query editor of a tab, above the splitter that sets its height (shared by every query tab). */
function QueryEditorPane(
  props: Omit<QueryInputProps, 'tabId' | 'wrap' | 'height' | 'mode'> & { id: string; kind: QueryMode },
) {
  const { wrap, editorHeight } = useQueryTabs();
  const store = useQueryTabsStore();
  const { id, kind, ...input } = props;
  return (
    <>
      <QueryInput {...input} mode={kind} tabId={id} wrap={wrap} height={editorHeight} />
      <Splitter
        orientation="horizontal"
        size={editorHeight}
        direction={1}
        min={60}
        max={2000}
        label="Resize the query editor"
        onResize={(height) => store.setEditorHeight(height)}
      />
    </>
  );
}

/**
 * What goes into a tab's editor from elsewhere: a query of the history (into this tab when it is of this
 * tab's kind or the kind may change, else into a new tab), and a name from the sidebar at the cursor.
 */
function useEditorFeed(tab: Pick<QueryConsoleProps, 'kind' | 'text' | 'kindLocked' | 'onKind' | 'onText'>) {
  const { kind, text, kindLocked, onKind, onText } = tab;
  const { newQuery } = useQueryCommands();
  // Each edit is a new object, so the same text can be inserted twice.
  const [edit, setEdit] = useState<EditorEdit>();
  const openInEditor = (queryKind: QueryMode, query: string) => {
    if (queryKind !== kind && kindLocked) return newQuery(queryKind, query);
    onKind(queryKind);
    onText(query);
    if (queryKind !== 'nl') setEdit({ kind: 'replace', text: query });
  };
  const insert = (snippet: string) => {
    if (kind === 'nl') onText(text ? `${text} ${snippet}` : snippet);
    else setEdit({ kind: 'insert', text: snippet });
  };
  return { edit, setEdit, openInEditor, insert };
}

/** Text replaced from outside the editor (a saved query reloaded from disk) goes into the editor as an edit. */
function useReloadedText(text: string, revision: number | undefined, setEdit: (edit: EditorEdit) => void): void {
  const seen = useRef(revision);
  useEffect(() => {
    if (revision === seen.current) return;
    seen.current = revision;
    setEdit({ kind: 'replace', text });
    // Only a new revision brings text from outside: keystrokes arrive through onText.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [revision]);
}
