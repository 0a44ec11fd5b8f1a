import { useState } from 'react';
import type { Catalog } from './completion.js';
import type { QuerySource } from '../../../server/src/contract/index.js';
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

/**
 * Sources -> tables -> columns with their types. The API lists sources only: tables appear once a query
 * names them, or when added by name here. Double-click a name to put it into the editor.
 */
export function SourcesTree({ sources, error, catalog, onRefresh, onLearn, onInsert }: SourcesTreeProps) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [adding, setAdding] = useState<string>();
  const [addError, setAddError] = useState<string>();
  const toggle = (key: string) =>
    setOpen((s) => {
      const next = new Set(s);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  return (
    <div className="sources-tree" role="tree" aria-label="Query sources">
      <div className="toolbar compact">
        <span className="muted">{sources.length} sources</span>
        <span className="spacer" />
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
      </div>
      {error && <div className="banner error">{error}</div>}
      {sources.map((source) => {
        const tables = catalog.tables[source.name] ?? [];
        const isOpen = open.has(source.name);
        return (
          <div key={source.name} role="treeitem" aria-expanded={isOpen} aria-label={source.name}>
            <div
              className="source-row"
              title={source.description}
              onClick={() => toggle(source.name)}
              onDoubleClick={() => onInsert(source.name)}
            >
              <span className="twisty">{isOpen ? '▾' : '▸'}</span>
              <strong>{source.name}</strong>
              <span className={`source-type ${source.type}`}>{typeLabels[source.type]}</span>
            </div>
            {isOpen && (
              <div role="group" className="source-children">
                <div className="muted source-description">{source.description}</div>
                {tables.map((table) => {
                  const key = `${source.name}.${table}`;
                  const tableOpen = open.has(key);
                  return (
                    <div key={key} role="treeitem" aria-expanded={tableOpen} aria-label={key}>
                      <div
                        className="table-row"
                        onClick={() => toggle(key)}
                        onDoubleClick={() => onInsert(key)}
                        title="Double-click to insert"
                      >
                        <span className="twisty">{tableOpen ? '▾' : '▸'}</span>
                        {table}
                      </div>
                      {tableOpen && (
                        <ul className="column-list">
                          {(catalog.columns[key] ?? []).map((c) => (
                            <li key={c.name} onDoubleClick={() => onInsert(c.name)} title="Double-click to insert">
                              {c.name} <span className="muted">{c.type}</span>
                            </li>
                          ))}
                        </ul>
                      )}
                    </div>
                  );
                })}
                {adding === source.name ? (
                  <form
                    className="add-table"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const table = new FormData(e.currentTarget).get('table')?.toString().trim();
                      if (!table) return;
                      void onLearn([{ source: source.name, table }]).then((failure) => {
                        setAddError(failure);
                        if (!failure) setAdding(undefined);
                      });
                    }}
                  >
                    <input name="table" aria-label={`Table of ${source.name}`} placeholder="table name" autoFocus />
                    {addError && <div className="error-text">{addError}</div>}
                  </form>
                ) : (
                  <button
                    type="button"
                    className="link"
                    onClick={() => {
                      setAdding(source.name);
                      setAddError(undefined);
                    }}
                  >
                    + table by name
                  </button>
                )}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
