import type { ResultColumn } from '../../../../server/src/contract/index.js';

/** What the console knows of the sources: tables per source and, once looked up, their columns. */
export interface Catalog {
  sources: string[];
  /** `source` -> table names. */
  tables: Record<string, string[]>;
  /** `source.table` -> columns. */
  columns: Record<string, ResultColumn[]>;
}

export interface Suggestion {
  label: string;
  kind: 'source' | 'table' | 'column' | 'keyword';
  detail?: string;
}

const keywords = [
  'SELECT',
  'FROM',
  'WHERE',
  'JOIN',
  'LEFT JOIN',
  'ON',
  'GROUP BY',
  'ORDER BY',
  'HAVING',
  'LIMIT',
  'AS',
  'AND',
  'OR',
  'NOT',
  'IN',
  'BETWEEN',
  'LIKE',
  'IS NULL',
  'DISTINCT',
  'COUNT',
  'AVG',
  'SUM',
  'MIN',
  'MAX',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'DESC',
  'ASC',
  'WITH',
  'UNION ALL',
];

/** `alias` -> `source.table` for `source.table [AS] alias` in the text. */
export function aliases(sql: string, catalog: Catalog): Map<string, string> {
  const found = new Map<string, string>();
  const pattern = /\b([A-Za-z_][\w$]*)\.([A-Za-z_][\w$]*)\s+(?:AS\s+)?([A-Za-z_][\w$]*)/gi;
  const reserved = new Set([
    'on',
    'where',
    'join',
    'left',
    'right',
    'inner',
    'outer',
    'full',
    'cross',
    'group',
    'order',
    'limit',
    'using',
    'natural',
    'union',
    'having',
    'as',
  ]);
  for (const match of sql.matchAll(pattern)) {
    const [, source, table, alias] = match;
    if (!catalog.sources.includes(source) || reserved.has(alias.toLowerCase())) continue;
    found.set(alias, `${source}.${table}`);
  }
  return found;
}

/**
 * Completions at the cursor. `prefix` is the dotted chain before the word being typed (`shop.` or
 * `shop.orders.` or `o.`, empty when none): after a source its tables, after a table or an alias of
 * one its columns; otherwise sources, qualified tables, the columns of every known table and keywords.
 */
export function suggestions(catalog: Catalog, prefix: string, sql: string): Suggestion[] {
  const chain = prefix.replace(/\.$/, '');
  if (chain) {
    if (catalog.sources.includes(chain))
      return (catalog.tables[chain] ?? []).map((t) => ({ label: t, kind: 'table', detail: `table of ${chain}` }));
    const qualified = catalog.columns[chain] ? chain : aliases(sql, catalog).get(chain);
    if (qualified)
      return (catalog.columns[qualified] ?? []).map((c) => ({
        label: c.name,
        kind: 'column',
        detail: `${c.type} · ${qualified}`,
      }));
    return [];
  }
  const columnNames = new Map<string, Suggestion>();
  for (const [table, columns] of Object.entries(catalog.columns)) {
    for (const c of columns)
      if (!columnNames.has(c.name))
        columnNames.set(c.name, { label: c.name, kind: 'column', detail: `${c.type} · ${table}` });
  }
  return [
    ...catalog.sources.map((s): Suggestion => ({ label: s, kind: 'source', detail: 'source' })),
    ...catalog.sources.flatMap((s) =>
      (catalog.tables[s] ?? []).map((t): Suggestion => ({ label: `${s}.${t}`, kind: 'table', detail: 'table' })),
    ),
    ...columnNames.values(),
    ...keywords.map((k): Suggestion => ({ label: k, kind: 'keyword' })),
  ];
}
