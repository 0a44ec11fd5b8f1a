import { createContext, useContext, useSyncExternalStore } from 'react';
import type { QueryTabsState, QueryTabsStore } from './query-tabs.js';

/** The workbench's query tabs, provided by the shell beside the other stores. */
export const QueryTabsContext = createContext<QueryTabsStore | null>(null);

/** The query tabs' store. */
export function useQueryTabsStore(): QueryTabsStore {
  const store = useContext(QueryTabsContext);
  if (!store) throw new Error('useQueryTabsStore outside the workbench');
  return store;
}

/** The query tabs and their shared settings, re-rendering on every change. */
export function useQueryTabs(): QueryTabsState {
  const store = useQueryTabsStore();
  return useSyncExternalStore(store.subscribe, store.snapshot);
}
