import { ExternalStore } from '../../base/external-store.js';
import { SessionStore } from '../../state/session.js';
import type { TabsStore } from '../../state/tabs.js';
import type { QueryMode } from '../query-runs.js';

/** An unsaved query tab of the editor area: its own text and kind (a saved one is a workspace file instead). */
export interface QueryTab {
  /** The tab's id in the editor's tab list (`query:3`). */
  id: string;
  title: string;
  kind: QueryMode;
  text: string;
}

/** The unsaved query tabs and the settings every query editor shares. */
export interface QueryTabsState {
  tabs: Record<string, QueryTab>;
  /** The number of the next new tab (titles are never reused while tabs are open). */
  next: number;
  /** Word wrap of the query editors (Alt+Z). */
  wrap: boolean;
  /** The height of the query editor above its results, in pixels. */
  editorHeight: number;
}

const idPrefix = 'query:';
/** The folder of saved queries, and the extension of each saveable kind. */
export const savedQueryFolder = 'query/saved';
const extensions: Partial<Record<QueryMode, string>> = { sql: '.sql', sparql: '.rq' };
const kinds: QueryMode[] = ['sql', 'sparql', 'nl'];

/** A new query tab of each kind: the shell's action, its keys, and the button's text. */
export const newQueryActions: { kind: QueryMode; action: string; keys: string; text: string }[] = [
  { kind: 'sql', action: 'newSqlQuery', keys: 'Alt+KeyQ', text: 'New SQL query' },
  { kind: 'sparql', action: 'newSparqlQuery', keys: 'Alt+Shift+KeyQ', text: 'New SPARQL query' },
  { kind: 'nl', action: 'newQuestion', keys: 'Alt+Shift+KeyN', text: 'New question' },
];

// A first query tab: six lines of editor, the rest for results (20 rows or more at 1440x900, issue 38).
export const defaultQueryTabs: QueryTabsState = { tabs: {}, next: 1, wrap: false, editorHeight: 120 };

/** The extension of a saved query of `kind` (`.sql`, `.rq`); undefined for a question, which is not saved. */
export function extensionOf(kind: QueryMode): string | undefined {
  return extensions[kind];
}

/** True for the id of an unsaved query tab (`query:3`), which names no file. */
export function isQueryTabId(id: string | undefined): id is string {
  return id?.startsWith(idPrefix) === true;
}

/** The kind of a saved query file (`query/saved/x.sql` is SQL, `.rq` SPARQL); undefined for any other path. */
export function savedQueryKind(path: string | undefined): QueryMode | undefined {
  if (!path?.startsWith(`${savedQueryFolder}/`)) return undefined;
  return kinds.find((kind) => extensions[kind] && path.endsWith(extensions[kind]));
}

/** True when the editor area shows `id` as a query tab: an unsaved query, or a saved query file. */
export function isQueryTab(id: string | undefined): boolean {
  return isQueryTabId(id) || savedQueryKind(id) !== undefined;
}

/**
 * The workspace path a query of `kind` is saved at under `name` (the extension is added when missing), or
 * why it cannot be: a question is not saved, and a name is one plain file name.
 */
export function savedQueryPath(name: string, kind: QueryMode): { path: string } | { error: string } {
  const extension = extensions[kind];
  if (!extension) return { error: 'Only SQL and SPARQL queries can be saved' };
  const trimmed = name.trim();
  if (trimmed === '') return { error: 'A saved query needs a name' };
  if (/[/\\]/.test(trimmed) || trimmed.startsWith('.')) {
    return { error: `"${trimmed}" is not a plain file name (no folders, not hidden)` };
  }
  const file = trimmed.endsWith(extension) ? trimmed : `${trimmed}${extension}`;
  return { path: `${savedQueryFolder}/${file}` };
}

/** The stored state when it is readable; what cannot be read (an older shape, hand edits) is dropped. */
export function readQueryTabs(stored: unknown): QueryTabsState {
  if (typeof stored !== 'object' || stored === null) return defaultQueryTabs;
  const raw = stored as Partial<QueryTabsState>;
  const tabs: Record<string, QueryTab> = {};
  for (const [id, tab] of Object.entries(typeof raw.tabs === 'object' && raw.tabs !== null ? raw.tabs : {})) {
    const t = tab as Partial<QueryTab>;
    if (isQueryTabId(id) && typeof t.text === 'string' && typeof t.title === 'string' && kinds.includes(t.kind!))
      tabs[id] = { id, title: t.title, kind: t.kind!, text: t.text };
  }
  const number = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
  return {
    tabs,
    next: number(raw.next, defaultQueryTabs.next),
    wrap: raw.wrap === true,
    editorHeight: number(raw.editorHeight, defaultQueryTabs.editorHeight),
  };
}

/**
 * Makes the editor's tab list and the query tabs agree after a restart: a query tab of either without its
 * other half (storage edited or cleared in part) is dropped, so the editor never shows an empty query tab.
 */
export function reconcileQueryTabs(tabs: Pick<TabsStore, 'snapshot' | 'removed'>, queries: QueryTabsStore): void {
  const { open } = tabs.snapshot();
  for (const id of open) if (isQueryTabId(id) && !queries.get(id)) tabs.removed(id);
  for (const id of Object.keys(queries.snapshot().tabs)) if (!open.includes(id)) queries.close(id);
}

/**
 * The texts the bottom-panel console of earlier versions kept (`query-texts`: one per kind) become query
 * tabs, once, so that an upgrade loses no query; empty ones and unknown kinds are left out.
 */
export function adoptConsoleTexts(stored: unknown, tabs: Pick<TabsStore, 'open'>, queries: QueryTabsStore): void {
  if (typeof stored !== 'object' || stored === null) return;
  for (const kind of kinds) {
    const text = (stored as Partial<Record<QueryMode, unknown>>)[kind];
    if (typeof text === 'string' && text.trim() !== '') tabs.open(queries.create(kind, text));
  }
}

/**
 * The unsaved query tabs of the editor area (their order and the active tab are the editor's
 * {@link TabsStore}'s) and the query editors' shared settings. Every change replaces the state (for
 * useSyncExternalStore) and is handed to `persist`, so the tabs and their text outlive a reload.
 */
export class QueryTabsStore extends ExternalStore<QueryTabsState> {
  private readonly sessions = new Map<string, SessionStore>();

  constructor(
    state: QueryTabsState,
    private readonly persist: (state: QueryTabsState) => void = () => undefined,
  ) {
    super(state);
  }

  get(id: string): QueryTab | undefined {
    return this.state.tabs[id];
  }

  /**
   * The values a tab's console keeps while the workbench runs (its outcome, maximised results): one store per
   * tab (unsaved or a saved file), so that tabs do not share what they show.
   */
  sessionOf(id: string): SessionStore {
    let session = this.sessions.get(id);
    if (!session) this.sessions.set(id, (session = new SessionStore()));
    return session;
  }

  /** Makes a new tab of `kind` (with `text`) and returns its id. */
  create(kind: QueryMode, text = ''): string {
    const { next } = this.state;
    const id = `${idPrefix}${next}`;
    this.replace({
      ...this.state,
      next: next + 1,
      tabs: { ...this.state.tabs, [id]: { id, title: `Query ${next}`, kind, text } },
    });
    return id;
  }

  /** Records a tab's text. */
  edit(id: string, text: string): void {
    this.update(id, { text });
  }

  /** Switches a tab to another kind; each tab keeps one text. */
  setKind(id: string, kind: QueryMode): void {
    this.update(id, { kind });
  }

  /** Forgets a closed tab, or one saved to a file (whose tab now shows the file). */
  close(id: string): void {
    this.sessions.delete(id);
    if (!this.state.tabs[id]) return;
    const tabs = { ...this.state.tabs };
    delete tabs[id];
    this.replace({ ...this.state, tabs });
  }

  /** An unsaved tab was saved as `path`: its tab now shows the file, with the results it showed. */
  saved(id: string, path: string): void {
    const session = this.sessions.get(id);
    this.close(id);
    if (session) this.sessions.set(path, session);
  }

  toggleWrap(): void {
    this.replace({ ...this.state, wrap: !this.state.wrap });
  }

  setEditorHeight(editorHeight: number): void {
    this.replace({ ...this.state, editorHeight });
  }

  private update(id: string, change: Partial<QueryTab>): void {
    const tab = this.state.tabs[id];
    if (tab) this.replace({ ...this.state, tabs: { ...this.state.tabs, [id]: { ...tab, ...change } } });
  }

  /** The state is in place before `persist` sees it, and the subscribers are told after. */
  private replace(state: QueryTabsState): void {
    this.replaceState(state, false);
    this.persist(state);
    this.notify();
  }
}
