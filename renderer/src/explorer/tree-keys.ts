import type { WorkspaceEntry } from '../../../server/src/contract/index.js';
import { parentOf } from '../state/paths.js';

/** The entry at `path` in the workspace tree, or undefined. */
export function findEntry(entries: WorkspaceEntry[], path: string): WorkspaceEntry | undefined {
  for (const entry of entries) {
    if (entry.path === path) return entry;
    if (entry.children && path.startsWith(`${entry.path}/`)) return findEntry(entry.children, path);
  }
  return undefined;
}

/** A row the explorer shows: an entry whose folders above it are all open. */
export interface VisibleRow {
  path: string;
  name: string;
  isFolder: boolean;
  isOpen: boolean;
}

/** The rows of the tree top to bottom, as the explorer draws them: a closed folder hides its entries. */
export function visibleRows(entries: WorkspaceEntry[], expanded: readonly string[]): VisibleRow[] {
  const rows: VisibleRow[] = [];
  const walk = (list: WorkspaceEntry[]) => {
    for (const entry of list) {
      const isFolder = entry.type === 'directory';
      const isOpen = isFolder && expanded.includes(entry.path);
      rows.push({ path: entry.path, name: entry.name, isFolder, isOpen });
      if (isOpen) walk(entry.children ?? []);
    }
  };
  walk(entries);
  return rows;
}

/** What a key does to the tree: the row to select, a folder to open or close, a file to open. */
export interface TreeMove {
  select?: string;
  toggle?: { path: string; open: boolean };
  open?: string;
}

/**
 * The explorer's keys as in the WAI-ARIA tree pattern: Up/Down move, Right opens a folder or enters it, Left
 * closes it or goes to the parent, Home/End jump, Enter opens a file or flips a folder. `undefined` for a key
 * the tree does not take (so it is left to the page).
 */
export function treeKey(key: string, rows: VisibleRow[], selected: string | undefined): TreeMove | undefined {
  if (rows.length === 0) return undefined;
  const index = rows.findIndex((row) => row.path === selected);
  const row = rows[index];
  if (!row) return ['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(key) ? { select: rows[0].path } : undefined;
  switch (key) {
    case 'ArrowDown':
      return { select: rows[Math.min(index + 1, rows.length - 1)].path };
    case 'ArrowUp':
      return { select: rows[Math.max(index - 1, 0)].path };
    case 'Home':
      return { select: rows[0].path };
    case 'End':
      return { select: rows[rows.length - 1].path };
    case 'ArrowRight':
      if (!row.isFolder) return {};
      if (!row.isOpen) return { toggle: { path: row.path, open: true } };
      return rows[index + 1] && parentOf(rows[index + 1].path) === row.path ? { select: rows[index + 1].path } : {};
    case 'ArrowLeft':
      if (row.isOpen) return { toggle: { path: row.path, open: false } };
      return parentOf(row.path) ? { select: parentOf(row.path) } : {};
    case 'Enter':
      return row.isFolder ? { toggle: { path: row.path, open: !row.isOpen } } : { open: row.path };
    default:
      return undefined;
  }
}

/**
 * Type-ahead: the next row after the selected one (wrapping round) whose name starts with `typed`, ignoring
 * case; the selected row itself when it matches and more than one letter was typed, so typing on refines.
 */
export function typeAhead(rows: VisibleRow[], selected: string | undefined, typed: string): string | undefined {
  const prefix = typed.toLowerCase();
  const start = rows.findIndex((row) => row.path === selected);
  const from = start < 0 ? 0 : start + (typed.length > 1 ? 0 : 1);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[(from + i) % rows.length];
    if (row.name.toLowerCase().startsWith(prefix)) return row.path;
  }
  return undefined;
}
