import { useState } from 'react';
import { useWorkbench } from '../app/workbench-context.js';
import { usePersistedState } from '../state/persisted.js';
import { useCatalog } from './catalog-store.js';
import { QueryInput } from './QueryInput.js';
import { QueryOutput } from './QueryOutput.js';
import { useQueryRuns, useSparqlVocabulary, type QueryMode } from './query-runs.js';
import { QuerySidebar, type SidebarTab } from './QuerySidebar.js';
import { QueryToolbar, type ResultView } from './QueryToolbar.js';
import type { EditorEdit } from './SqlEditor.js';
import './query.css';

/**
 * The query console: sources sidebar, an editor for SQL (or SPARQL, or a question in words), results
 * as a grid or a chart, async jobs and the history of what was run.
 */
export default function QueryConsole() {
  const { colorScheme, notify } = useWorkbench();
  const { sources, error: sourcesError, catalog, refresh, learn } = useCatalog();
  const [mode, setMode] = usePersistedState<QueryMode>('query-mode', 'sql');
  const [texts, setTexts] = usePersistedState<Record<QueryMode, string>>('query-texts', {
    sql: '',
    sparql: '',
    nl: '',
  });
  const [runAsync, setRunAsync] = usePersistedState('query-async', false);
  const [view, setView] = useState<ResultView>('grid');
  const [tab, setTab] = useState<SidebarTab>('sources');
  // Each edit is a new object, so the same text can be inserted twice.
  const [edit, setEdit] = useState<EditorEdit>();
  const text = texts[mode] ?? '';
  const vocabulary = useSparqlVocabulary(mode === 'sparql');
  const runs = useQueryRuns({ mode, text, runAsync, vocabulary, catalog, learn, onSubmitted: () => setTab('jobs') });

  const { errorAt } = runs.outcome;
  const setText = (value: string) => setTexts((t) => ({ ...t, [mode]: value }));
  /** Switches to `kind` with `query` in its editor (from the history, or a question's generated SQL). */
  const openInEditor = (kind: QueryMode, query: string) => {
    setMode(kind);
    setTexts((t) => ({ ...t, [kind]: query }));
    if (kind !== 'nl') setEdit({ kind: 'replace', text: query });
  };
  const insert = (snippet: string) => {
    if (mode === 'nl') setText(text ? `${text} ${snippet}` : snippet);
    else setEdit({ kind: 'insert', text: snippet });
  };

  return (
    <div className="query-console">
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
      <section className="query-main">
        <QueryToolbar
          mode={mode}
          onMode={setMode}
          hasQuery={text.trim() !== ''}
          outcome={runs.outcome}
          onRun={() => void runs.run()}
          onExplain={() => void runs.explain()}
          runAsync={runAsync}
          onRunAsync={setRunAsync}
          view={view}
          onView={setView}
        />
        <QueryInput
          mode={mode}
          text={text}
          edit={edit}
          catalog={catalog}
          vocabulary={vocabulary}
          errorMark={errorAt?.mode === mode ? { ...errorAt, message: runs.outcome.error ?? '' } : undefined}
          theme={colorScheme}
          onText={setText}
          onRun={() => void runs.run()}
        />
        <QueryOutput
          outcome={runs.outcome}
          view={view}
          onEditSql={mode === 'nl' ? (sql) => openInEditor('sql', sql) : undefined}
          onPick={mode === 'nl' ? (candidate) => void runs.pick(candidate) : undefined}
          onNotify={notify}
        />
      </section>
    </div>
  );
}
