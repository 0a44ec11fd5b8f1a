import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { WorkbenchBridge, WorkspaceTree } from '../../../server/src/contract/index.js';
import type { WorkbenchApi } from '../api/client.js';
import { EventStore } from '../api/event-store.js';
import { EditorArea } from '../editor/EditorArea.js';
import type { RevealRequest } from '../editor/MonacoEditor.js';
import { Explorer, targetFolder, type NameRequest } from '../explorer/Explorer.js';
import { panelRegistry } from '../panels/registry.js';
import { DocumentStore, isDirty } from '../state/documents.js';
import { usePersistedState } from '../state/persisted.js';
import { newFileContent } from '../state/templates.js';
import { useColorScheme } from '../state/theme.js';
import { PanelRegion } from './PanelRegion.js';
import { displayKeys, useShortcuts, type Shortcut } from './shortcuts.js';
import { Splitter } from './Splitter.js';
import { WorkbenchContext, useDocuments, useServerState, useWorkbench, type Workbench } from './workbench-context.js';

/** The remembered layout: pane sizes, which panes show, and the active panel of each region. */
interface Layout {
  explorerWidth: number;
  sideWidth: number;
  bottomHeight: number;
  explorerVisible: boolean;
  sideVisible: boolean;
  bottomVisible: boolean;
  sidePanel: string;
  bottomPanel: string;
}

const defaultLayout: Layout = {
  explorerWidth: 240,
  sideWidth: 540,
  bottomHeight: 300,
  explorerVisible: true,
  sideVisible: true,
  bottomVisible: true,
  sidePanel: 'docs',
  bottomPanel: 'problems',
};

const shortcuts: Shortcut[] = [
  { id: 'save', keys: 'Mod+KeyS', description: 'Save the active file' },
  { id: 'saveAll', keys: 'Mod+Shift+KeyS', description: 'Save all files' },
  { id: 'newFile', keys: 'Alt+KeyN', description: 'New file in the selected folder' },
  { id: 'closeTab', keys: 'Alt+KeyW', description: 'Close the active tab' },
  { id: 'nextTab', keys: 'Alt+PageDown', description: 'Next tab' },
  { id: 'previousTab', keys: 'Alt+PageUp', description: 'Previous tab' },
  { id: 'toggleExplorer', keys: 'Mod+KeyB', description: 'Show or hide the explorer' },
  { id: 'toggleBottom', keys: 'Mod+KeyJ', description: 'Show or hide the bottom panels' },
  { id: 'toggleSide', keys: 'Mod+Alt+KeyB', description: 'Show or hide the side panel' },
  ...panelRegistry.map((panel, i) => ({
    id: `panel:${panel.id}`,
    keys: `Alt+Digit${i + 1}`,
    description: `Show ${panel.title}`,
  })),
  { id: 'help', keys: 'Alt+KeyH', description: 'Show these shortcuts' },
];

const otherShortcuts = [
  { keys: 'F2', description: 'Rename the selected file (explorer)' },
  { keys: 'Delete', description: 'Delete the selected file (explorer)' },
];

/** The Electron bridge takes listeners but cannot remove them: add one for the page's lifetime. */
let menuListenerAdded = false;

function parentOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

/** The workbench's stores, shared through context, around the {@link Shell}. */
export function App({ api }: { api: WorkbenchApi }) {
  const colorScheme = useColorScheme();
  const events = useMemo(() => new EventStore(api), [api]);
  const documents = useMemo(() => new DocumentStore(api), [api]);
  const [status, setStatus] = useState<{ text: string; kind: 'info' | 'error' }>();
  const [reveal, setReveal] = useState<RevealRequest>();
  const [tabs, setTabs] = usePersistedState<Tabs>('tabs', { open: [] });
  const revealNonce = useRef(0);

  const notify = useCallback((text: string, kind: 'info' | 'error' = 'info') => setStatus({ text, kind }), []);
  const openFile = useCallback(
    (path: string, position?: { line: number; column: number }) => {
      setTabs((t) => ({ open: t.open.includes(path) ? t.open : [...t.open, path], active: path }));
      void documents.open(path);
      if (position) setReveal({ path, ...position, nonce: ++revealNonce.current });
    },
    [documents, setTabs],
  );
  const workbench = useMemo<Workbench>(
    () => ({ api, events, documents, openFile, notify, colorScheme }),
    [api, events, documents, openFile, notify, colorScheme],
  );

  useEffect(() => {
    events.connect();
    return () => events.close();
  }, [events]);

  // Reopen the tabs of the last session, once, when the stores are made.
  const initialTabs = useRef(tabs.open);
  useEffect(() => {
    for (const path of initialTabs.current) void documents.open(path);
  }, [documents]);

  return (
    <WorkbenchContext.Provider value={workbench}>
      <Shell tabs={tabs} setTabs={setTabs} reveal={reveal} status={status} />
    </WorkbenchContext.Provider>
  );
}

/** Open tabs and the active one, remembered across restarts. */
interface Tabs {
  open: string[];
  active?: string;
}

interface ShellProps {
  tabs: Tabs;
  setTabs(update: (tabs: Tabs) => Tabs): void;
  reveal?: RevealRequest;
  status?: { text: string; kind: 'info' | 'error' };
}

/** The workbench: explorer, editor tabs, side and bottom panels, status bar. */
function Shell(props: ShellProps) {
  const { tabs, setTabs } = props;
  const { api, documents, openFile, notify, colorScheme } = useWorkbench();
  const server = useServerState();
  const docs = useDocuments();
  const [tree, setTree] = useState<WorkspaceTree>();
  const [layout, setLayout] = usePersistedState<Layout>('layout', defaultLayout);
  const [expanded, setExpanded] = usePersistedState<string[]>('expanded', ['specs', 'handlers']);
  const [selected, setSelected] = useState<string>();
  const [nameRequest, setNameRequest] = useState<NameRequest>();
  const [showHelp, setShowHelp] = useState(false);

  const refreshTree = useCallback(() => {
    api.tree().then(setTree, (error: Error) => notify(`Cannot list the workspace: ${error.message}`, 'error'));
  }, [api, notify]);

  // The tree follows every reload: the watcher reloads on any change in specs/ and handlers/.
  useEffect(() => refreshTree(), [refreshTree, server.reloadCount]);

  const dirtyPaths = useMemo(
    () =>
      new Set(
        Object.values(docs.documents)
          .filter(isDirty)
          .map((d) => d.path),
      ),
    [docs],
  );

  const save = useCallback(
    (path: string | undefined) => {
      if (!path) return;
      documents.save(path).then(
        () => notify(`Saved ${path}`),
        (error: Error) => notify(`Cannot save ${path}: ${error.message}`, 'error'),
      );
    },
    [documents, notify],
  );

  const closeTab = useCallback(
    (path: string) => {
      if (isDirty(documents.get(path)) && !window.confirm(`${path} has unsaved changes. Close it anyway?`)) return;
      setTabs((t) => {
        const index = t.open.indexOf(path);
        const open = t.open.filter((p) => p !== path);
        const active = t.active === path ? open[Math.min(index, open.length - 1)] : t.active;
        return { open, active };
      });
      documents.close(path);
    },
    [documents, setTabs],
  );

  const create = async (parent: string, name: string, kind: 'file' | 'directory') => {
    const path = `${parent}/${name}`;
    try {
      await api.create(path, kind, kind === 'file' ? newFileContent(path) : undefined);
      refreshTree();
      setSelected(path);
      if (kind === 'file') openFile(path);
      notify(`Created ${path}`);
    } catch (error) {
      notify(`Cannot create ${path}: ${(error as Error).message}`, 'error');
    }
  };

  const rename = async (from: string, newName: string) => {
    const parent = parentOf(from);
    const to = parent ? `${parent}/${newName}` : newName;
    try {
      await api.rename(from, to);
      documents.renamed(from, to);
      const moved = (p: string) => (p === from ? to : p.startsWith(`${from}/`) ? to + p.slice(from.length) : p);
      setTabs((t) => ({ open: t.open.map(moved), active: t.active && moved(t.active) }));
      setSelected(to);
      refreshTree();
      notify(`Renamed ${from} to ${to}`);
    } catch (error) {
      notify(`Cannot rename ${from}: ${(error as Error).message}`, 'error');
    }
  };

  const remove = async (path: string) => {
    if (!path.includes('/') && path !== 'health.yaml') return;
    if (!window.confirm(`Delete ${path}?`)) return;
    try {
      await api.remove(path);
      const gone = (p: string) => p === path || p.startsWith(`${path}/`);
      setTabs((t) => {
        const open = t.open.filter((p) => !gone(p));
        return { open, active: t.active && gone(t.active) ? open[0] : t.active };
      });
      documents.close(path);
      setSelected(undefined);
      refreshTree();
      notify(`Deleted ${path}`);
    } catch (error) {
      notify(`Cannot delete ${path}: ${(error as Error).message}`, 'error');
    }
  };

  const toggleFolder = (path: string, open?: boolean) =>
    setExpanded((list) => {
      const isOpen = list.includes(path);
      const shouldOpen = open ?? !isOpen;
      if (shouldOpen === isOpen) return list;
      return shouldOpen ? [...list, path] : list.filter((p) => p !== path);
    });

  const showPanel = (id: string) => {
    const panel = panelRegistry.find((p) => p.id === id);
    if (!panel) return;
    setLayout((l) =>
      panel.region === 'side'
        ? { ...l, sideVisible: true, sidePanel: id }
        : { ...l, bottomVisible: true, bottomPanel: id },
    );
  };

  const cycleTab = (step: number) =>
    setTabs((t) => {
      if (t.open.length === 0) return t;
      const index = t.active ? t.open.indexOf(t.active) : 0;
      return { ...t, active: t.open[(index + step + t.open.length) % t.open.length] };
    });

  useShortcuts(shortcuts, {
    save: () => save(tabs.active),
    saveAll: () =>
      Object.values(documents.snapshot().documents)
        .filter(isDirty)
        .forEach((d) => save(d.path)),
    newFile: () => {
      if (!tree) return;
      const parent = targetFolder(tree.entries, selected);
      toggleFolder(parent, true);
      setNameRequest({ kind: 'file', parent });
    },
    closeTab: () => tabs.active && closeTab(tabs.active),
    nextTab: () => cycleTab(1),
    previousTab: () => cycleTab(-1),
    toggleExplorer: () => setLayout((l) => ({ ...l, explorerVisible: !l.explorerVisible })),
    toggleBottom: () => setLayout((l) => ({ ...l, bottomVisible: !l.bottomVisible })),
    toggleSide: () => setLayout((l) => ({ ...l, sideVisible: !l.sideVisible })),
    help: () => setShowHelp(!showHelp),
    ...Object.fromEntries(panelRegistry.map((panel) => [`panel:${panel.id}`, () => showPanel(panel.id)])),
  });

  // Inside Electron, the native File menu's New Spec / New Handler ask for a name like Alt+N does.
  const menuHandler = useRef<(command: 'new-spec' | 'new-handler') => void>(() => undefined);
  menuHandler.current = (command) => {
    const parent = command === 'new-spec' ? 'specs' : 'handlers';
    toggleFolder(parent, true);
    setNameRequest({ kind: 'file', parent });
  };
  useEffect(() => {
    const bridge = (window as { workbench?: WorkbenchBridge }).workbench;
    if (!bridge || menuListenerAdded) return;
    menuListenerAdded = true;
    bridge.onMenuCommand((command) => menuHandler.current(command));
  }, []);

  const sidePanels = panelRegistry.filter((p) => p.region === 'side');
  const bottomPanels = panelRegistry.filter((p) => p.region === 'bottom');
  const errors = server.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = server.diagnostics.length - errors;

  return (
    <div className={`app ${colorScheme}`}>
      <header className="titlebar">
        <span className="logo" aria-hidden="true">
          ◭
        </span>
        <strong>Adaptive Workbench</strong>
        <span className="muted">{tree?.workspace}</span>
        <span className="spacer" />
        <button
          type="button"
          className={`toggle${layout.explorerVisible ? ' on' : ''}`}
          title={`Explorer (${displayKeys('Mod+KeyB')})`}
          onClick={() => setLayout((l) => ({ ...l, explorerVisible: !l.explorerVisible }))}
        >
          Explorer
        </button>
        <button
          type="button"
          className={`toggle${layout.bottomVisible ? ' on' : ''}`}
          title={`Panels (${displayKeys('Mod+KeyJ')})`}
          onClick={() => setLayout((l) => ({ ...l, bottomVisible: !l.bottomVisible }))}
        >
          Panels
        </button>
        <button
          type="button"
          className={`toggle${layout.sideVisible ? ' on' : ''}`}
          title={`API docs (${displayKeys('Mod+Alt+KeyB')})`}
          onClick={() => setLayout((l) => ({ ...l, sideVisible: !l.sideVisible }))}
        >
          Docs
        </button>
        <button
          type="button"
          className="toggle"
          title={`Keyboard shortcuts (${displayKeys('Alt+KeyH')})`}
          aria-label="Keyboard shortcuts"
          onClick={() => setShowHelp(true)}
        >
          ?
        </button>
      </header>

      <main className="main">
        {layout.explorerVisible && (
          <>
            <aside className="explorer-pane" style={{ width: layout.explorerWidth }}>
              <Explorer
                entries={tree?.entries ?? []}
                activePath={tabs.active}
                dirtyPaths={dirtyPaths}
                selected={selected}
                onSelect={setSelected}
                onOpen={(path) => openFile(path)}
                expanded={expanded}
                onToggle={toggleFolder}
                nameRequest={nameRequest}
                onRequestName={setNameRequest}
                onCreate={(parent, name, kind) => void create(parent, name, kind)}
                onRename={(path, name) => void rename(path, name)}
                onDelete={(path) => void remove(path)}
                onRefresh={refreshTree}
              />
            </aside>
            <Splitter
              orientation="vertical"
              size={layout.explorerWidth}
              direction={1}
              min={160}
              max={600}
              label="Resize explorer"
              onResize={(w) => setLayout((l) => ({ ...l, explorerWidth: w }))}
            />
          </>
        )}
        <div className="center">
          <div className="editor-pane">
            <EditorArea
              tabs={tabs.open}
              active={tabs.active}
              documents={docs}
              diagnostics={server.diagnostics}
              theme={colorScheme}
              reveal={props.reveal}
              onActivate={(path) => setTabs((t) => ({ ...t, active: path }))}
              onClose={closeTab}
              onChange={(path, text) => documents.edit(path, text)}
              onSave={save}
            />
          </div>
          {layout.bottomVisible && (
            <>
              <Splitter
                orientation="horizontal"
                size={layout.bottomHeight}
                direction={-1}
                min={100}
                max={900}
                label="Resize panels"
                onResize={(h) => setLayout((l) => ({ ...l, bottomHeight: h }))}
              />
              <div className="bottom-pane" style={{ height: layout.bottomHeight }}>
                <PanelRegion
                  panels={bottomPanels}
                  active={layout.bottomPanel}
                  label="Panels"
                  onActivate={(id) => setLayout((l) => ({ ...l, bottomPanel: id }))}
                  onHide={() => setLayout((l) => ({ ...l, bottomVisible: false }))}
                />
              </div>
            </>
          )}
        </div>
        {layout.sideVisible && sidePanels.length > 0 && (
          <>
            <Splitter
              orientation="vertical"
              size={layout.sideWidth}
              direction={-1}
              min={280}
              max={1400}
              label="Resize side panel"
              onResize={(w) => setLayout((l) => ({ ...l, sideWidth: w }))}
            />
            <aside className="side-pane" style={{ width: layout.sideWidth }}>
              <PanelRegion
                panels={sidePanels}
                active={layout.sidePanel}
                label="Side panel"
                onActivate={(id) => setLayout((l) => ({ ...l, sidePanel: id }))}
                onHide={() => setLayout((l) => ({ ...l, sideVisible: false }))}
              />
            </aside>
          </>
        )}
      </main>

      <footer className="statusbar">
        <span
          className={`connection ${server.connected ? 'on' : 'off'}`}
          title={server.connected ? 'Connected to the server' : 'Reconnecting to the server…'}
        >
          {server.connected ? '● connected' : '○ reconnecting'}
        </span>
        <button type="button" className="status-problems" onClick={() => showPanel('problems')}>
          {errors} errors, {warnings} warnings
        </button>
        {server.lastReload && <span className="muted">{server.lastReload.message}</span>}
        <span className="spacer" />
        {props.status && (
          <span className={`status-message ${props.status.kind}`} role="status">
            {props.status.text}
          </span>
        )}
      </footer>

      {showHelp && (
        <div className="modal-backdrop" onClick={() => setShowHelp(false)}>
          <div className="modal" role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
            <h2>Keyboard shortcuts</h2>
            <table className="grid shortcuts">
              <tbody>
                {[
                  ...shortcuts.map((s) => ({ keys: displayKeys(s.keys), description: s.description })),
                  ...otherShortcuts,
                ].map((s) => (
                  <tr key={s.keys}>
                    <td>
                      <kbd>{s.keys}</kbd>
                    </td>
                    <td>{s.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <button type="button" onClick={() => setShowHelp(false)}>
              Close
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
