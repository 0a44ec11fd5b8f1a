import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { WorkspaceEntry } from '../../../server/src/contract/index.js';
import { Icon } from '../app/icons.js';

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
  onCreate(parent: string, name: string, kind: 'file' | 'directory'): void;
  onRename(path: string, newName: string): void;
  onDelete(path: string): void;
  onRefresh(): void;
}

function parentOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

function findEntry(entries: WorkspaceEntry[], path: string): WorkspaceEntry | undefined {
  for (const entry of entries) {
    if (entry.path === path) return entry;
    if (entry.children && path.startsWith(`${entry.path}/`)) return findEntry(entry.children, path);
  }
  return undefined;
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
    const dot = initial.indexOf('.');
    element.setSelectionRange(0, dot > 0 ? dot : initial.length);
  }, [initial]);
  const finish = (value: string | undefined) => {
    if (finished.current) return;
    finished.current = true;
    onDone(value);
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

/** The workspace tree (specs, handlers, query, health.yaml) with new, rename and delete. */
export function Explorer(props: ExplorerProps) {
  const { entries, selected, expanded, nameRequest } = props;
  const expandedSet = new Set(expanded);

  const onKeyDown = (event: KeyboardEvent) => {
    if (!selected || nameRequest) return;
    if (event.key === 'F2') {
      event.preventDefault();
      props.onRequestName({ kind: 'rename', path: selected });
    } else if (event.key === 'Delete') {
      event.preventDefault();
      props.onDelete(selected);
    }
  };

  const renderEntries = (list: WorkspaceEntry[], depth: number, parent: string) => {
    const rows = list.map((entry) => renderEntry(entry, depth));
    if (nameRequest && nameRequest.kind !== 'rename' && nameRequest.parent === parent) {
      rows.unshift(
        <li key="__new" style={{ paddingLeft: depth * 12 + 8 }} className="tree-row">
          <span className="icon">{nameRequest.kind === 'directory' ? '▸' : '·'}</span>
          <NameInput
            initial={nameRequest.kind === 'directory' ? 'folder' : defaultFileName(parent)}
            onDone={(name) => {
              props.onRequestName(undefined);
              if (name) props.onCreate(parent, name, nameRequest.kind);
            }}
          />
        </li>,
      );
    }
    return rows;
  };

  const renderEntry = (entry: WorkspaceEntry, depth: number) => {
    const isOpen = expandedSet.has(entry.path);
    const renaming = nameRequest?.kind === 'rename' && nameRequest.path === entry.path;
    const isArea = depth === 0;
    return (
      <li key={entry.path}>
        <div
          className={`tree-row${entry.path === selected ? ' selected' : ''}${entry.path === props.activePath ? ' active' : ''}`}
          style={{ paddingLeft: depth * 12 + 8 }}
          role="treeitem"
          aria-selected={entry.path === selected}
          aria-expanded={entry.type === 'directory' ? isOpen : undefined}
          data-path={entry.path}
          onClick={() => {
            props.onSelect(entry.path);
            if (entry.type === 'directory') props.onToggle(entry.path);
            else props.onOpen(entry.path);
          }}
        >
          <span className="icon">{entry.type === 'directory' ? (isOpen ? '▾' : '▸') : '·'}</span>
          {renaming ? (
            <NameInput
              initial={entry.name}
              onDone={(name) => {
                props.onRequestName(undefined);
                if (name) props.onRename(entry.path, name);
              }}
            />
          ) : (
            <span className={`name${isArea ? ' area' : ''}`}>
              {entry.name}
              {props.dirtyPaths.has(entry.path) && <span className="dirty-dot" aria-label="unsaved" />}
            </span>
          )}
        </div>
        {entry.type === 'directory' && isOpen && (
          <ul role="group">{renderEntries(entry.children ?? [], depth + 1, entry.path)}</ul>
        )}
      </li>
    );
  };

  const target = targetFolder(entries, selected);
  // The area folders themselves stay; their contents and health.yaml can be renamed and deleted.
  const canChange = selected !== undefined && (selected.includes('/') || selected === 'health.yaml');
  return (
    <div className="explorer" onKeyDown={onKeyDown}>
      <div className="toolbar explorer-toolbar">
        <span className="title">Explorer</span>
        <span className="spacer" />
        <button
          type="button"
          title="New file (Alt+N)"
          aria-label="New file"
          onClick={() => {
            props.onToggle(target, true);
            props.onRequestName({ kind: 'file', parent: target });
          }}
        >
          <Icon name="newFile" />
        </button>
        <button
          type="button"
          title="New folder"
          aria-label="New folder"
          onClick={() => {
            props.onToggle(target, true);
            props.onRequestName({ kind: 'directory', parent: target });
          }}
        >
          <Icon name="newFolder" />
        </button>
        <button
          type="button"
          title="Rename (F2)"
          aria-label="Rename"
          disabled={!canChange}
          onClick={() => selected && props.onRequestName({ kind: 'rename', path: selected })}
        >
          <Icon name="rename" />
        </button>
        <button
          type="button"
          title="Delete (Del)"
          aria-label="Delete"
          disabled={!canChange}
          onClick={() => selected && props.onDelete(selected)}
        >
          <Icon name="delete" />
        </button>
        <button type="button" title="Refresh" aria-label="Refresh" onClick={props.onRefresh}>
          <Icon name="refresh" />
        </button>
      </div>
      <ul className="tree" role="tree" aria-label="Workspace files" tabIndex={0}>
        {renderEntries(entries, 0, '')}
      </ul>
    </div>
  );
}

function defaultFileName(parent: string): string {
  if (parent.startsWith('specs')) return 'new-api.openapi.yaml';
  if (parent.startsWith('handlers')) return 'new_api_handler.ts';
  return 'untitled.yaml';
}
