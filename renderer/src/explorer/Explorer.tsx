import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { WorkspaceEntry } from '../../../server/src/contract/index.js';
import { Icon } from '../platform/icons.js';
import { isChangeable, parentOf } from '../state/paths.js';
import { stemEnd, withSingleSuffix } from '../state/file-names.js';
import { findEntry, treeKey, typeAhead, visibleRows } from './tree-keys.js';
import './explorer.css';

/** What the explorer is asking a name for. */
export type NameRequest = { kind: 'file' | 'directory'; parent: string } | { kind: 'rename'; path: string };

export interface ExplorerProps {
  entries: WorkspaceEntry[];
  activePath?: string;
  dirtyPaths: Set<string>;
  selected?: string;
  onSelect(path: string): void;
  onOpen(path: string): void;
  expanded: string[];
  onToggle(path: string, open?: boolean): void;
  nameRequest?: NameRequest;
  onRequestName(request: NameRequest | undefined): void;
  /** Opens `parent` and asks for the name of a new file or folder in it. */
  onRequestNew(kind: 'file' | 'directory', parent: string): void;
  onCreate(parent: string, name: string, kind: 'file' | 'directory'): void;
  onRename(path: string, newName: string): void;
  onDelete(path: string): void;
  onRefresh(): void;
}

/** The folder a new file goes into: the selected folder, the selected file's folder, else `specs`. */
export function targetFolder(entries: WorkspaceEntry[], selected: string | undefined): string {
  if (!selected) return 'specs';
  const entry = findEntry(entries, selected);
  if (entry?.type === 'directory') return entry.path;
  const parent = parentOf(selected);
  return parent === '' ? 'specs' : parent;
}

function NameInput({ initial, onDone }: { initial: string; onDone(value: string | undefined): void }) {
  const input = useRef<HTMLInputElement>(null);
  const finished = useRef(false);
  useEffect(() => {
    const element = input.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(0, stemEnd(initial));
  }, [initial]);
  const finish = (value: string | undefined) => {
    if (finished.current) return;
    finished.current = true;
    onDone(value === undefined ? undefined : withSingleSuffix(value));
  };
  return (
    <input
      ref={input}
      className="name-input"
      aria-label="Name"
      defaultValue={initial}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') finish(e.currentTarget.value.trim() || undefined);
        if (e.key === 'Escape') finish(undefined);
      }}
      onBlur={(e) =>
        finish(
          e.currentTarget.value.trim() && e.currentTarget.value.trim() !== initial
            ? e.currentTarget.value.trim()
            : undefined,
        )
      }
    />
  );
}

interface ToolbarProps {
  /** The folder a new file or folder goes into. */
  target: string;
  selected?: string;
  onRequestNew(kind: 'file' | 'directory', parent: string): void;
  onRequestName(request: NameRequest): void;
  onDelete(path: string): void;
  onRefresh(): void;
}

function ExplorerToolbar({ target, selected, onRequestNew, onRequestName, onDelete, onRefresh }: ToolbarProps) {
  const canChange = selected !== undefined && isChangeable(selected);
  return (
    <div className="toolbar explorer-toolbar">
      <span className="title">Explorer</span>
      <span className="spacer" />
      <button type="button" title="New file (Alt+N)" aria-label="New file" onClick={() => onRequestNew('file', target)}>
        <Icon name="newFile" />
      </button>
      <button
        type="button"
        title="New folder"
        aria-label="New folder"
        onClick={() => onRequestNew('directory', target)}
      >
        <Icon name="newFolder" />
      </button>
      <button
        type="button"
        title="Rename (F2)"
        aria-label="Rename"
        disabled={!canChange}
        onClick={() => selected && onRequestName({ kind: 'rename', path: selected })}
      >
        <Icon name="rename" />
      </button>
      <button
        type="button"
        title="Delete (Del)"
        aria-label="Delete"
        disabled={!canChange}
        onClick={() => selected && onDelete(selected)}
      >
        <Icon name="delete" />
      </button>
      <button type="button" title="Refresh" aria-label="Refresh" onClick={onRefresh}>
        <Icon name="refresh" />
      </button>
    </div>
  );
}

interface EntriesProps {
  entries: WorkspaceEntry[];
  depth: number;
  /** The folder that holds `entries` (`''` at the top). */
  parent: string;
  explorer: ExplorerProps;
}

/** The rows of one folder, after the name input of a new entry when one is asked for in it. */
function EntryList({ entries, depth, parent, explorer }: EntriesProps) {
  const request = explorer.nameRequest;
  return (
    <>
      {request && request.kind !== 'rename' && request.parent === parent && (
        <li style={{ paddingLeft: depth * 12 + 8 }} className="tree-row" role="none">
          <span className="icon">{request.kind === 'directory' ? '▸' : '·'}</span>
          <NameInput
            initial={request.kind === 'directory' ? 'folder' : defaultFileName(parent)}
            onDone={(name) => {
              explorer.onRequestName(undefined);
              if (name) explorer.onCreate(parent, name, request.kind);
            }}
          />
        </li>
      )}
      {entries.map((entry) => (
        <EntryRow key={entry.path} entry={entry} depth={depth} explorer={explorer} />
      ))}
    </>
  );
}

/** The id of a row, for the tree's `aria-activedescendant`. */
function rowId(path: string): string {
  return `tree-${path.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;
}

/** One file or folder, and a folder's entries while it is open. */
function EntryRow({ entry, depth, explorer }: { entry: WorkspaceEntry; depth: number; explorer: ExplorerProps }) {
  const { selected, activePath, nameRequest } = explorer;
  const isOpen = explorer.expanded.includes(entry.path);
  const renaming = nameRequest?.kind === 'rename' && nameRequest.path === entry.path;
  const dirty = explorer.dirtyPaths.has(entry.path);
  const state = `${entry.path === selected ? ' selected' : ''}${entry.path === activePath ? ' active' : ''}`;
  return (
    // The row is the treeitem, not the list item around it and its folder's entries: its name is its own
    // text (axe's label-content-name-mismatch), and aria-level says the nesting.
    <li role="none">
      <div
        id={rowId(entry.path)}
        role="treeitem"
        aria-label={dirty ? `${entry.name}, unsaved` : entry.name}
        aria-level={depth + 1}
        aria-selected={entry.path === selected}
        aria-expanded={entry.type === 'directory' ? isOpen : undefined}
        className={`tree-row${state}`}
        style={{ paddingLeft: depth * 12 + 8 }}
        data-path={entry.path}
        onClick={() => {
          explorer.onSelect(entry.path);
          if (entry.type === 'directory') explorer.onToggle(entry.path);
          else explorer.onOpen(entry.path);
        }}
      >
        <span className="icon">{entry.type === 'directory' ? (isOpen ? '▾' : '▸') : '·'}</span>
        {renaming ? (
          <NameInput
            initial={entry.name}
            onDone={(name) => {
              explorer.onRequestName(undefined);
              if (name) explorer.onRename(entry.path, name);
            }}
          />
        ) : (
          <span className={`name${depth === 0 ? ' area' : ''}`}>
            {entry.name}
            {dirty && <span className="dirty-dot" />}
          </span>
        )}
      </div>
      {entry.type === 'directory' && isOpen && (
        <ul role="group">
          <EntryList entries={entry.children ?? []} depth={depth + 1} parent={entry.path} explorer={explorer} />
        </ul>
      )}
    </li>
  );
}

/**
 * The workspace tree (specs, handlers, query, health.yaml) with new, rename and delete. The list keeps the
 * focus and names the selected row as its active descendant; {@link useTreeKeys} moves the selection.
 */
export function Explorer(props: ExplorerProps) {
  const { entries, selected } = props;
  const tree = useRef<HTMLUListElement>(null);
  const onKeyDown = useTreeKeys(props);

  // A name asked for from the keyboard gives the focus back to the tree when it is done (the input is gone).
  const asking = props.nameRequest !== undefined;
  const wasAsking = useRef(false);
  useEffect(() => {
    if (wasAsking.current && !asking && document.activeElement === document.body) tree.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  // Keep the selected row in view as the keys move it.
  useEffect(() => {
    if (selected) document.getElementById(rowId(selected))?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  return (
    <div className="explorer">
      <ExplorerToolbar
        target={targetFolder(entries, selected)}
        selected={selected}
        onRequestNew={props.onRequestNew}
        onRequestName={props.onRequestName}
        onDelete={props.onDelete}
        onRefresh={props.onRefresh}
      />
      <ul
        ref={tree}
        className="tree"
        role="tree"
        aria-label="Workspace files"
        tabIndex={0}
        aria-activedescendant={selected && findEntry(entries, selected) ? rowId(selected) : undefined}
        onKeyDown={onKeyDown}
        onFocus={(event) => {
          // The first row takes the selection when the tree is entered with nothing selected in it.
          if (event.target === tree.current && !(selected && findEntry(entries, selected)) && entries[0])
            props.onSelect(entries[0].path);
        }}
      >
        <EntryList entries={entries} depth={0} parent="" explorer={props} />
      </ul>
    </div>
  );
}

/** How long typed letters add up to one type-ahead prefix. */
const typeAheadPause = 700;

/** The tree's keys: moves (tree-keys.ts), F2 renames, Delete deletes, and letters jump by type-ahead. */
function useTreeKeys(props: ExplorerProps) {
  const typed = useRef({ text: '', at: 0 });
  return (event: KeyboardEvent) => {
    if (props.nameRequest || event.target !== event.currentTarget) return;
    const rows = visibleRows(props.entries, props.expanded);
    const { selected } = props;
    if (selected && isChangeable(selected) && (event.key === 'F2' || event.key === 'Delete')) {
      event.preventDefault();
      if (event.key === 'F2') props.onRequestName({ kind: 'rename', path: selected });
      else props.onDelete(selected);
      return;
    }
    const move = treeKey(event.key, rows, selected);
    if (move) {
      event.preventDefault();
      if (move.select) props.onSelect(move.select);
      if (move.toggle) props.onToggle(move.toggle.path, move.toggle.open);
      if (move.open) props.onOpen(move.open);
      return;
    }
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey || event.key === ' ') return;
    const now = event.timeStamp;
    typed.current = {
      text: now - typed.current.at < typeAheadPause ? typed.current.text + event.key : event.key,
      at: now,
    };
    const match = typeAhead(rows, selected, typed.current.text);
    if (match) props.onSelect(match);
    event.preventDefault();
  };
}

function defaultFileName(parent: string): string {
  if (parent.startsWith('specs')) return 'new-api.openapi.yaml';
  if (parent.startsWith('handlers')) return 'new_api_handler.ts';
  return 'untitled.yaml';
}
