import { createContext, useCallback, useContext, useState, useSyncExternalStore } from 'react';
import type { WorkbenchApi } from '../api/client.js';
import type { WorkspaceTree } from '../../../server/src/contract/index.js';
import type { EventStore, ServerState } from '../api/event-store.js';
import type { DocumentStore, DocumentsState } from '../state/documents.js';
import type { SessionStore } from '../state/session.js';
import type { TabsState, TabsStore } from '../state/tabs.js';

/** What panels and views use to talk to the server and to the rest of the workbench. */
export interface Workbench {
  api: WorkbenchApi;
  events: EventStore;
  documents: DocumentStore;
  tabs: TabsStore;
  /**
   * The workspace listing asked for when the page started (beside the first render, not after it), which
   * the explorer shows first and the drafts take the workspace's name from.
   */
  firstListing: Promise<WorkspaceTree>;
  /** Values views keep while they are not shown (only the active panel of a region is mounted). */
  session: SessionStore;
  /** Opens a file in a tab and, when given, puts the cursor at `line`/`column`. */
  openFile(path: string, position?: { line: number; column: number }): void;
  /** Shows a panel (by its id in the panel registry): its region becomes visible with the panel active. */
  showPanel(id: string): void;
  /** Shows a short message in the status bar, with a button for `action` when given (Undo after a delete). */
  notify(message: string, kind?: 'info' | 'error', action?: { label: string; run(): void }): void;
  colorScheme: 'light' | 'dark';
}

export const WorkbenchContext = createContext<Workbench | null>(null);

export function useWorkbench(): Workbench {
  const workbench = useContext(WorkbenchContext);
  if (!workbench) throw new Error('useWorkbench outside the workbench');
  return workbench;
}

/**
 * A part of the live server state (logs, requests, diagnostics, reloads): the component renders again only
 * when that part changes, not for every log line or captured request. `select` returns a field of the state
 * (replaced, never mutated, when it changes) or a value computed to a primitive.
 */
export function useServerState<T>(select: (state: ServerState) => T): T {
  const { events } = useWorkbench();
  return useSyncExternalStore(events.subscribe, () => select(events.snapshot()));
}

/** The open documents. */
export function useDocuments(): DocumentsState {
  const { documents } = useWorkbench();
  return useSyncExternalStore(documents.subscribe, documents.snapshot);
}

/** The editor tabs. */
export function useTabs(): TabsState {
  const { tabs } = useWorkbench();
  return useSyncExternalStore(tabs.subscribe, tabs.snapshot);
}

/**
 * `useState` whose value outlives the component for as long as the workbench runs (not across a
 * reload): a panel that is hidden and shown again finds what it showed, including what arrived while
 * it was hidden (a query that finished meanwhile).
 */
export function useSessionState<T>(key: string, initial: T): [T, (value: T | ((previous: T) => T)) => void] {
  const { session } = useWorkbench();
  const [first] = useState(initial);
  const read = useCallback(() => (session.has(key) ? (session.get(key) as T) : first), [session, key, first]);
  // Subscribed, not read once: an instance mounted while an earlier one's request was in flight gets its answer.
  const value = useSyncExternalStore(session.subscribe, read);
  const update = useCallback(
    (next: T | ((previous: T) => T)) =>
      session.set(key, typeof next === 'function' ? (next as (previous: T) => T)(read()) : next),
    [session, key, read],
  );
  return [value, update];
}
