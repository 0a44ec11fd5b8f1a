import { useMemo, useState } from 'react';
import { WorkbenchContext, useDocuments, useWorkbench } from '../../platform/workbench-context.js';
import QueryConsole from '../QueryConsole.js';
import type { QueryMode } from '../query-runs.js';
import { suggestedName, useQueryCommands } from './query-commands.js';
import { isQueryTabId, savedQueryKind } from './query-tabs.js';
import { useQueryTabs, useQueryTabsStore } from './query-tabs-context.js';

/** An unsaved query tab: its text and kind live in the query tabs' store. */
function UnsavedQuery({ id }: { id: string }) {
  const store = useQueryTabsStore();
  const tab = useQueryTabs().tabs[id];
  const { saveAs } = useQueryCommands();
  if (!tab) return <div className="placeholder">This query tab is no longer open.</div>;
  return (
    <QueryConsole
      id={id}
      kind={tab.kind}
      text={tab.text}
      onKind={(kind) => store.setKind(id, kind)}
      onText={(text) => store.edit(id, text)}
      onSaveAs={(name) => saveAs(id, name)}
      suggestedName={suggestedName(tab.title)}
    />
  );
}

/**
 * A saved query (`query/saved/*.sql|rq`): its text is the open document's, so Ctrl+S saves it, a dot marks
 * unsaved changes and a change on disk reloads it like any file.
 */
function SavedQuery({ path, kind }: { path: string; kind: QueryMode }) {
  const { documents } = useWorkbench();
  const doc = useDocuments().documents[path];
  // Keystrokes update the document without re-rendering (see DocumentStore.edit): the console reads this
  // copy, which a new revision (the file reloaded from disk) replaces.
  const revision = doc?.revision ?? 0;
  const [copy, setCopy] = useState({ text: doc?.text ?? '', revision });
  if (copy.revision !== revision) setCopy({ text: doc?.text ?? '', revision });
  const { text } = copy;
  return (
    <QueryConsole
      id={path}
      kind={kind}
      kindLocked
      text={text}
      revision={revision}
      onKind={() => undefined}
      onText={(value) => {
        setCopy({ text: value, revision });
        documents.edit(path, value);
      }}
    />
  );
}

/**
 * The query tab `id` of the editor area. Its console keeps its values (the outcome on show, maximised
 * results) in a session of its own: the console's parts keep them under fixed names, and every tab shows
 * its own.
 */
export default function QueryTab({ id }: { id: string }) {
  const workbench = useWorkbench();
  const store = useQueryTabsStore();
  const scoped = useMemo(() => ({ ...workbench, session: store.sessionOf(id) }), [workbench, store, id]);
  const kind = savedQueryKind(id);
  return (
    <WorkbenchContext.Provider value={scoped}>
      {isQueryTabId(id) ? <UnsavedQuery id={id} /> : kind && <SavedQuery key={id} path={id} kind={kind} />}
    </WorkbenchContext.Provider>
  );
}
