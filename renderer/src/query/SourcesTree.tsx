import { useState } from 'react';
import type { QuerySource, ResultColumn } from '../../../server/src/contract/index.js';
import type { Catalog } from '../editor/languages/completion.js';
import type { TableReference } from './sql-references.js';

const typeLabels: Record<QuerySource['type'], string> = {
  relational: 'DB',
  streaming: 'stream',
  'object-storage': 'files',
};

export interface SourcesTreeProps {
  sources: QuerySource[];
  error?: string;
  catalog: Catalog;
  onRefresh(): void;
  onLearn(tables: TableReference[]): Promise<string | undefined>;
  onInsert(text: string): void;
}

interface TableNodeProps {
  table: string;
  /** `source.table`, what a double-click inserts. */
  name: string;
  columns: ResultColumn[];
  open: boolean;
  onToggle(): void;
  onInsert(text: string): void;
}

/** A table of a source, and its columns with their types while it is open. */
function TableNode({ table, name, columns, open, onToggle, onInsert }: TableNodeProps) {
  return (
    <div role="none">
      <div
        role="treeitem"
        aria-expanded={open}
        aria-label={name}
        className="table-row"
        onClick={onToggle}
        onDoubleClick={() => onInsert(name)}
        title="Double-click to insert"
      >
        <span className="twisty" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        {table}
      </div>
      {open && (
        <ul className="column-list">
          {columns.map((c) => (
            <li key={c.name} onDoubleClick={() => onInsert(c.name)} title="Double-click to insert">
              {c.name} <span className="muted">{c.type}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface AddTableProps {
  source: string;
  /** The form shows (one source's at a time), else the button that opens it. */
  adding: boolean;
  error?: string;
  onAdding(source: string | undefined, error?: string): void;
  onLearn: SourcesTreeProps['onLearn'];
}

/** Adds a table the source does not list, by name: it is looked up with a query, and its error shown. */
function AddTable({ source, adding, error, onAdding, onLearn }: AddTableProps) {
  if (!adding)
    return (
      <button type="button" className="link" onClick={() => onAdding(source)}>
        + table by name
      </button>
    );
  return (
    <form
      className="add-table"
      onSubmit={(e) => {
        e.preventDefault();
        const table = new FormData(e.currentTarget).get('table')?.toString().trim();
        if (!table) return;
        void onLearn([{ source, table }]).then((failure) => onAdding(failure ? source : undefined, failure));
      }}
    >
      <input name="table" aria-label={`Table of ${source}`} placeholder="table name" autoFocus />
      {error && <div className="error-text">{error}</div>}
    </form>
  );
}

/**
 * Sources -> tables -> columns with their types. The API lists sources only: tables appear once a query
 * names them, or when added by name here. Double-click a name to put it into the editor.
 */
export function SourcesTree({ sources, error, catalog, onRefresh, onLearn, onInsert }: SourcesTreeProps) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [adding, setAdding] = useState<{ source?: string; error?: string }>({});
  const toggle = (key: string) =>
    setOpen((s) => {
      const next = new Set(s);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  return (
    <div className="sources-tree">
      <div className="toolbar compact">
        <span className="muted">{sources.length} sources</span>
        <span className="spacer" />
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
      </div>
      {error && <div className="banner error">{error}</div>}
      {/* The tree holds only its items (the toolbar is outside it), and each row is the treeitem, named by its
          own text (axe: aria-required-children, label-content-name-mismatch). */}
      <div role="tree" aria-label="Query sources">
        {sources.map((source) => {
          const isOpen = open.has(source.name);
          return (
            <div key={source.name} role="none">
              <div
                role="treeitem"
                aria-expanded={isOpen}
                className="source-row"
                title={source.description}
                onClick={() => toggle(source.name)}
                onDoubleClick={() => onInsert(source.name)}
              >
                <span className="twisty" aria-hidden="true">
                  {isOpen ? '▾' : '▸'}
                </span>
                <strong>{source.name}</strong>
                {/* A badge for the eye; the row is named by the source (its description is the title). */}
                <span className={`source-type ${source.type}`} aria-hidden="true">
                  {typeLabels[source.type]}
                </span>
              </div>
              {isOpen && (
                <div role="group" className="source-children">
                  <div className="muted source-description">{source.description}</div>
                  {(catalog.tables[source.name] ?? []).map((table) => {
                    const key = `${source.name}.${table}`;
                    return (
                      <TableNode
                        key={key}
                        table={table}
                        name={key}
                        columns={catalog.columns[key] ?? []}
                        open={open.has(key)}
                        onToggle={() => toggle(key)}
                        onInsert={onInsert}
                      />
                    );
                  })}
                  <AddTable
                    source={source.name}
                    adding={adding.source === source.name}
                    error={adding.error}
                    onAdding={(source, error) => setAdding({ source, error })}
                    onLearn={onLearn}
                  />
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
