import type { WorkbenchApi } from '../../api/client.js';
import { useWorkbench } from '../../platform/workbench-context.js';
import type { DocumentStore } from '../../state/documents.js';
import type { TabsStore } from '../../state/tabs.js';
import type { QueryMode } from '../query-runs.js';
import { savedQueryPath, type QueryTabsStore } from './query-tabs.js';
import { useQueryTabsStore } from './query-tabs-context.js';

/** The session value (of the tab's own session) that shows the field asking for a name to save under. */
export const savingKey = 'query-save-as';

/** The file name a tab's title suggests (`Query 3` → `query-3`). */
export function suggestedName(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** What saving a query tab as a file changes. */
export interface SaveQueryDeps {
  api: Pick<WorkbenchApi, 'create'>;
  documents: Pick<DocumentStore, 'open'>;
  tabs: Pick<TabsStore, 'renamed'>;
  store: QueryTabsStore;
}

/**
 * Saves the unsaved query tab `id` as `name` under `query/saved/` (a new file: an existing one is not
 * overwritten) and binds the tab to it: the tab keeps its place and results and shows the file. Resolves
 * with the file's path; rejects with the reason (a bad name, or the server's detail).
 */
export async function saveQueryAs(deps: SaveQueryDeps, id: string, name: string): Promise<string> {
  const tab = deps.store.get(id);
  if (!tab) throw new Error(`${id} is not an open query tab`);
  const target = savedQueryPath(name, tab.kind);
  if ('error' in target) throw new Error(target.error);
  await deps.api.create(target.path, 'file', tab.text);
  deps.tabs.renamed(id, target.path);
  deps.store.saved(id, target.path);
  await deps.documents.open(target.path);
  return target.path;
}

/**
 * What the shell and a query tab do with query tabs: open a new one, close one (asking first when it holds
 * text that would be lost), and save one as a file under `query/saved/` through the workspace API, after
 * which the tab shows that file (Ctrl+S saves it, a dot marks unsaved changes).
 */
export function useQueryCommands() {
  const { api, documents, tabs, notify } = useWorkbench();
  const store = useQueryTabsStore();

  /** Opens a new query tab of `kind`, with `text` when given, and shows it. */
  const newQuery = (kind: QueryMode, text = '') => tabs.open(store.create(kind, text));

  const close = (id: string) => {
    const tab = store.get(id);
    if (tab?.text.trim() && !window.confirm(`${tab.title} is not saved. Close it anyway?`)) return;
    tabs.close(id);
    store.close(id);
  };

  /** Opens the tab's field that asks for the name to save it under (Ctrl+S on an unsaved query). */
  const askName = (id: string) => {
    if (store.get(id)?.kind === 'nl') notify('A question is not saved: Edit in SQL gives a query that can be', 'error');
    else store.sessionOf(id).set(savingKey, true);
  };

  /** Saves the tab as `name`; resolves false, with the reason in the status bar, when it was not saved. */
  const saveAs = async (id: string, name: string): Promise<boolean> => {
    try {
      const path = await saveQueryAs({ api, documents, tabs, store }, id, name);
      store.sessionOf(path).set(savingKey, false);
      notify(`Saved ${path}`);
      return true;
    } catch (error) {
      notify(`Cannot save ${store.get(id)?.title ?? id}: ${(error as Error).message}`, 'error');
      return false;
    }
  };

  return { newQuery, close, askName, saveAs };
}
