import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { WorkbenchApi } from '../api/client.js';
import { EventStore } from '../api/event-store.js';
import { EditorArea } from './EditorArea.js';
import type { RevealRequest } from '../editor/MonacoEditor.js';
import { targetFolder } from '../explorer/Explorer.js';
import { useExplorerState } from '../explorer/explorer-state.js';
import { panelRegistry } from '../panels/registry.js';
import { DocumentStore } from '../state/documents.js';
import { Drafts } from '../state/drafts.js';
import { loadPersisted, savePersisted } from '../state/persisted.js';
import { TabsStore, type TabsState } from '../state/tabs.js';
import { useColorScheme } from '../state/theme.js';
import { actions } from './actions.js';
import { useEditorCommands } from './editor-commands.js';
import { ExplorerPane } from './ExplorerPane.js';
import { useLayout } from './layout.js';
import { useMenuCommands } from './menu-commands.js';
import { Region } from './Region.js';
import { useOverlays } from './overlays.js';
import { useShortcuts } from '../platform/shortcuts.js';
import { StatusBar, type StatusMessage } from './StatusBar.js';
import { TitleBar } from './TitleBar.js';
import {
  WorkbenchContext,
  useDocuments,
  useServerState,
  useTabs,
  useWorkbench,
  type Workbench,
} from '../platform/workbench-context.js';
import { useWorkspaceCommands } from './workspace-commands.js';
import { useFileSafety } from './file-safety.js';
import { SessionStore } from '../state/session.js';
import { useQueryCommands } from '../query/tabs/query-commands.js';
import {
  isQueryTab,
  isQueryTabId,
  newQueryActions,
  QueryTabsStore,
  readQueryTabs,
  reconcileQueryTabs,
  adoptConsoleTexts,
} from '../query/tabs/query-tabs.js';
import { QueryTabsContext, useQueryTabs, useQueryTabsStore } from '../query/tabs/query-tabs-context.js';
import './shell.css';

/** The tabs of the last session, and a store that remembers every change of them. */
function restoreTabs(): TabsStore {
  const stored = { open: [], ...loadPersisted<Partial<TabsState>>('tabs', {}) };
  return new TabsStore(stored, (state) => savePersisted('tabs', state));
}

/**
 * The query tabs of the last session, in step with the editor's tabs, and a store that remembers them. The
 * first time, the texts of the former bottom-panel console become tabs.
 */
function restoreQueryTabs(tabs: TabsStore): QueryTabsStore {
  const stored = loadPersisted<unknown>('query-tabs', null);
  const store = new QueryTabsStore(readQueryTabs(stored), (state) => savePersisted('query-tabs', state));
  reconcileQueryTabs(tabs, store);
  if (stored === null) adoptConsoleTexts(loadPersisted<unknown>('query-texts', null), tabs, store);
  return store;
}

/** The workbench's stores, shared through context, around the {@link Shell}. */
export function App({ api }: { api: WorkbenchApi }) {
  const colorScheme = useColorScheme();
  const events = useMemo(() => new EventStore(api), [api]);
  const firstListing = useMemo(() => api.tree(), [api]);
  const documents = useMemo(
    () => new DocumentStore(api, new Drafts(firstListing.then((tree) => tree.workspace))),
    [api, firstListing],
  );
  const [tabs] = useState(restoreTabs);
  const [queryTabs] = useState(() => restoreQueryTabs(tabs));
  const [session] = useState(() => new SessionStore());
  const [status, setStatus] = useState<StatusMessage>();
  const [reveal, setReveal] = useState<RevealRequest>();
  const layout = useLayout();
  const { showPanel } = layout;
  const revealNonce = useRef(0);

  const notify = useCallback<Workbench['notify']>(
    (text, kind = 'info', action) => setStatus({ text, kind, action }),
    [],
  );
  const openFile = useCallback(
    (path: string, position?: { line: number; column: number }) => {
      tabs.open(path);
      void documents.open(path);
      if (position) setReveal({ path, ...position, nonce: ++revealNonce.current });
    },
    [documents, tabs],
  );
  const workbench = useMemo<Workbench>(
    () => ({ api, events, documents, tabs, firstListing, session, openFile, showPanel, notify, colorScheme }),
    [api, events, documents, tabs, firstListing, session, openFile, showPanel, notify, colorScheme],
  );

  useEffect(() => {
    events.connect();
    return () => events.close();
  }, [events]);

  // Reopen the tabs of the last session when the stores are made, and those with unsaved changes kept.
  useEffect(() => {
    for (const path of tabs.snapshot().open) if (!isQueryTabId(path)) void documents.open(path);
    void documents.draftPaths().then((paths) => {
      for (const path of paths) if (!tabs.snapshot().open.includes(path)) openFile(path);
    });
  }, [documents, tabs, openFile]);
  useFileSafety(events, documents);

  return (
    <WorkbenchContext.Provider value={workbench}>
      <QueryTabsContext.Provider value={queryTabs}>
        <Shell reveal={reveal} status={status} layoutState={layout} />
      </QueryTabsContext.Provider>
    </WorkbenchContext.Provider>
  );
}

/** The workbench: title bar, explorer, editor tabs, side and bottom panels, status bar. */
function Shell(props: { reveal?: RevealRequest; status?: StatusMessage; layoutState: ReturnType<typeof useLayout> }) {
  const { reveal, status } = props;
  const { api, documents, tabs, openFile, colorScheme } = useWorkbench();
  const openTabs = useTabs();
  const docs = useDocuments();
  const diagnostics = useServerState((s) => s.diagnostics);
  const workspace = useWorkspaceCommands(api);
  const explorer = useExplorerState();
  const editor = useEditorCommands();
  const { layout, update, togglePane, showPanel } = props.layoutState;
  const overlays = useOverlays();
  const queries = useQueryTabs();
  const query = useQueryCommandHandlers(openTabs.active);
  /** Closes a tab: an unsaved query's, or a file's (a saved query's results go with its tab). */
  const closeTab = (id: string) => {
    if (isQueryTabId(id)) return query.close(id);
    editor.closeTab(id);
    if (!tabs.snapshot().open.includes(id)) query.forget(id);
  };

  const handlers: Record<string, () => void> = {
    ...query.handlers,
    save: () => (isQueryTabId(openTabs.active) ? query.askName(openTabs.active) : editor.save(openTabs.active)),
    saveAll: editor.saveAll,
    newFile: () => {
      if (workspace.tree) explorer.requestNew('file', targetFolder(workspace.tree.entries, workspace.selected));
    },
    closeTab: () => openTabs.active && closeTab(openTabs.active),
    nextTab: () => tabs.cycle(1),
    previousTab: () => tabs.cycle(-1),
    toggleExplorer: () => togglePane('explorer'),
    toggleBottom: () => togglePane('bottom'),
    toggleSide: () => togglePane('side'),
    ...overlays.handlers,
    ...Object.fromEntries(panelRegistry.map((panel) => [`panel:${panel.id}`, () => showPanel(panel.id)])),
  };
  useShortcuts(actions, handlers);
  // Inside Electron, the native File menu's New Spec / New Handler ask for a name like Alt+N does.
  useMenuCommands((command) => explorer.requestNew('file', command === 'new-spec' ? 'specs' : 'handlers'));

  return (
    <div className={`app ${colorScheme}`}>
      <TitleBar workspace={workspace.tree?.workspace} layout={layout} onAction={(id) => handlers[id]()} />
      <main className="main">
        {layout.explorerVisible && (
          <ExplorerPane
            workspace={workspace}
            explorer={explorer}
            activePath={openTabs.active}
            width={layout.explorerWidth}
            onOpen={(path) => openFile(path)}
            onResize={(explorerWidth) => update({ explorerWidth })}
          />
        )}
        <div className="center">
          <div className="editor-pane">
            <EditorArea
              tabs={openTabs.open}
              active={openTabs.active}
              documents={docs}
              queryTabs={queries.tabs}
              diagnostics={diagnostics}
              theme={colorScheme}
              reveal={reveal}
              onActivate={(path) => tabs.activate(path)}
              onClose={closeTab}
              onChange={(path, text) => documents.edit(path, text)}
              onSave={editor.save}
              onResolve={(path, choice) => documents.resolve(path, choice)}
              onDismissRestored={(path) => documents.dismissRestored(path)}
            />
          </div>
          <Region region="bottom" layout={layout} onLayout={update} />
        </div>
        <Region region="side" layout={layout} onLayout={update} />
      </main>
      <StatusBar message={status} onShowProblems={() => showPanel('problems')} />
      {overlays.render(workspace.tree?.entries ?? [], handlers)}
    </div>
  );
}

/** The shell's actions for query tabs: a new tab of each kind, and word wrap while a query tab is active. */
function useQueryCommandHandlers(active: string | undefined) {
  const store = useQueryTabsStore();
  const commands = useQueryCommands();
  const handlers: Record<string, () => void> = {
    ...Object.fromEntries(newQueryActions.map(({ action, kind }) => [action, () => commands.newQuery(kind)])),
    toggleWrap: () => {
      if (isQueryTab(active)) store.toggleWrap();
    },
  };
  /** Drops what a closed saved query's tab showed. */
  const forget = (path: string) => store.close(path);
  return { ...commands, handlers, forget };
}
