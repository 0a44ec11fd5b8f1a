import { useCallback, useEffect, useRef, useState } from 'react';
import type { Catalog } from '../editor/languages/completion.js';
import type { QuerySource } from '../../../server/src/contract/index.js';
import { queryApi } from './query-api.js';
import { quoteIdentifier, type TableReference } from './sql-references.js';

/**
 * The sources (from `GET /sources`) with their tables and columns (from `GET /sources/{name}/tables`).
 * A table a source does not list (a view, a file added since) becomes known when a query that names
 * it succeeds or the user adds it; its columns then come from `SELECT * FROM <source>.<table> LIMIT 0`.
 */
export function useCatalog() {
  const [sources, setSources] = useState<QuerySource[]>([]);
  const [error, setError] = useState<string>();
  const [catalog, setCatalog] = useState<Catalog>({ sources: [], tables: {}, columns: {} });
  const looking = useRef(new Set<string>());

  const refresh = useCallback(() => {
    queryApi.sources().then(
      (list) => {
        setSources(list);
        setError(undefined);
        setCatalog((c) => ({ ...c, sources: list.map((s) => s.name) }));
        for (const { name } of list) {
          queryApi.tables(name).then(
            (tables) =>
              setCatalog((c) => ({
                ...c,
                tables: {
                  ...c.tables,
                  [name]: [...new Set([...(c.tables[name] ?? []), ...tables.map((t) => t.name)])].sort(),
                },
                columns: { ...c.columns, ...Object.fromEntries(tables.map((t) => [`${name}.${t.name}`, t.columns])) },
              })),
            // A source that cannot list its tables still takes queries; its tables are learnt as they are used.
            () => undefined,
          );
        }
      },
      (e: Error) => setError(e.message),
    );
  }, []);
  useEffect(refresh, [refresh]);

  /** Looks up the columns of tables (once each); resolves with the detail of the first that fails. */
  const learn = useCallback(async (references: TableReference[]): Promise<string | undefined> => {
    let failure: string | undefined;
    await Promise.all(
      references.map(async ({ source, table }) => {
        const key = `${source}.${table}`;
        if (looking.current.has(key)) return;
        looking.current.add(key);
        try {
          const result = await queryApi.sql(
            `SELECT * FROM ${quoteIdentifier(source)}.${quoteIdentifier(table)} LIMIT 0`,
          );
          setCatalog((c) => ({
            ...c,
            tables: { ...c.tables, [source]: [...new Set([...(c.tables[source] ?? []), table])].sort() },
            columns: { ...c.columns, [key]: result.columns },
          }));
        } catch (e) {
          looking.current.delete(key);
          failure ??= (e as Error).message;
        }
      }),
    );
    return failure;
  }, []);

  return { sources, error, catalog, refresh, learn };
}
