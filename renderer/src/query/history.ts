import { loadPersisted, savePersisted } from '../state/persisted.js';

/** A query that was run: its text, kind, when, and how it ended. */
export interface HistoryEntry {
  query: string;
  kind: 'sql' | 'sparql' | 'nl';
  at: number;
  ok: boolean;
  rowCount?: number;
  elapsedMs?: number;
}

const key = 'query-history';
export const historyLimit = 100;

/** The remembered queries, newest first; unreadable entries are dropped. */
export function loadHistory(): HistoryEntry[] {
  const stored = loadPersisted<unknown[]>(key, []);
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (e): e is HistoryEntry =>
      typeof e === 'object' &&
      e !== null &&
      typeof (e as HistoryEntry).query === 'string' &&
      typeof (e as HistoryEntry).at === 'number',
  );
}

/** Adds a run at the top; the same text of the same kind moves up instead of repeating. Keeps the newest {@link
 * historyLimit}. */
export function addToHistory(history: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  const next = [entry, ...history.filter((e) => e.query !== entry.query || e.kind !== entry.kind)].slice(
    0,
    historyLimit,
  );
  savePersisted(key, next);
  return next;
}
