import { createContext, useContext, useSyncExternalStore } from 'react';
import type { WorkbenchApi } from '../api/client.js';
import type { EventStore, ServerState } from '../api/event-store.js';
import type { DocumentStore, DocumentsState } from '../state/documents.js';

/** What panels and views use to talk to the server and to the rest of the workbench. */
export interface Workbench {
  api: WorkbenchApi;
  events: EventStore;
  documents: DocumentStore;
  /** Opens a file in a tab and, when given, puts the cursor at `line`/`column`. */
  openFile(path: string, position?: { line: number; column: number }): void;
  /** Shows a short message in the status bar. */
  notify(message: string, kind?: 'info' | 'error'): void;
  colorScheme: 'light' | 'dark';
}

export const WorkbenchContext = createContext<Workbench | null>(null);

export function useWorkbench(): Workbench {
  const workbench = useContext(WorkbenchContext);
  if (!workbench) throw new Error('useWorkbench outside the workbench');
  return workbench;
}

/** The live server state (logs, requests, diagnostics, reloads). */
export function useServerState(): ServerState {
  const { events } = useWorkbench();
  return useSyncExternalStore(events.subscribe, events.snapshot);
}

/** The open documents. */
export function useDocuments(): DocumentsState {
  const { documents } = useWorkbench();
  return useSyncExternalStore(documents.subscribe, documents.snapshot);
}
