import { withDeadline } from '../deadline.js';
import type { SqlResult } from '../../contract/index.js';
import type { SourceCatalog } from '../source-catalog.js';
import type { NlSettings } from './nl-settings.js';
import { sqlIdent } from '../../core/sql-text.js';

export type ColumnKind = 'number' | 'text' | 'date' | 'other';

export interface SchemaColumn {
  name: string;
  type: string;
  kind: ColumnKind;
  /** Distinct values seen in a sample (text columns only), so a question's words can match data. */
  values: string[];
  /** Whether the sample stopped at its limit, so the column may hold values not in `values` (looked up on demand). */
  valuesCut?: boolean;
  /**
   * A value a question computes from other columns of the same table (the days between two dates),
   * never stored: `sql` writes it from the SQL of the columns `of`.
   */
  derived?: { of: SchemaColumn[]; sql: (columns: string[]) => string };
}

export interface SchemaTable {
  source: string;
  name: string;
  /** `source.table`, lower-cased: the key relationships and synonyms use. */
  key: string;
  columns: SchemaColumn[];
}

/** A join key between two tables (either direction can be walked). */
export interface Relationship {
  from: { table: string; column: string };
  to: { table: string; column: string };
}

/** Everything a translator knows about the data: tables, columns, sample values, relationships, synonyms. */
export interface SchemaContext {
  tables: SchemaTable[];
  relationships: Relationship[];
  synonyms: NlSettings['synonyms'];
}

/** Where a source that cannot be listed is reported (the server's logger). */
export interface SchemaLog {
  warn(details: object, message: string): void;
}

/** Longest sampled value kept: longer texts are descriptions, not something a question names. */
export const maxValueLength = 60;
/** Most distinct values sampled per text column; a column with fewer has all of its values sampled. */
export const valuesPerColumn = 200;

const numberTypes = [
  'TINYINT',
  'SMALLINT',
  'INTEGER',
  'BIGINT',
  'HUGEINT',
  'UTINYINT',
  'USMALLINT',
  'UINTEGER',
  'UBIGINT',
];
const numberType = new RegExp(`^(${numberTypes.join('|')}|FLOAT|DOUBLE|REAL|DECIMAL.*|NUMERIC.*)$`);

/** The kind of a DuckDB type, for deciding what a column can be compared, summed or grouped by. */
export function columnKind(type: string): ColumnKind {
  const t = type.toUpperCase();
  if (numberType.test(t)) return 'number';
  if (/^(DATE|TIMESTAMP.*)$/.test(t)) return 'date';
  if (/^(VARCHAR|TEXT|STRING|CHAR.*|ENUM.*)$/.test(t)) return 'text';
  return 'other';
}

export const tableKey = (source: string, table: string): string => `${source}.${table}`.toLowerCase();

/**
 * Builds the schema context of every source in `catalog`: tables and columns from the connectors,
 * a sample of distinct values of each text column (one query per table through `run`, so sampling
 * goes through the engine and its limits), declared relationships, and relationships inferred from
 * column names (`customer_id` -> `customers.id`). A source that cannot be read, or does not list
 * its tables within `timeoutMs` (the query limit), is left out, with a warning to `log`.
 */
export async function buildSchemaContext(
  catalog: SourceCatalog,
  settings: NlSettings,
  run: (sql: string) => Promise<SqlResult>,
  timeoutMs: number,
  log?: SchemaLog,
): Promise<SchemaContext> {
  const unlisted = (source: string) => (error: unknown) => {
    log?.warn(
      { source, err: (error as Error).message },
      'natural language leaves out a source that did not list its tables; its tables come back when it answers',
    );
    return [];
  };
  // Sources are listed, and tables sampled, all at once: a source that hangs costs one timeout, not one per table.
  const listed = await Promise.all(
    catalog.list().map(async ({ definition, connector }) => ({
      source: definition.name,
      infos: await withDeadline(timeoutMs, (deadline) => connector.listTables(deadline)).catch(
        unlisted(definition.name),
      ),
    })),
  );
  const tables: SchemaTable[] = listed.flatMap(({ source, infos }) =>
    infos.map((info) => ({
      source,
      name: info.name,
      key: tableKey(source, info.name),
      columns: info.columns.map((c) => ({
        name: c.name,
        type: c.type,
        kind: columnKind(c.type),
        values: [] as string[],
      })),
    })),
  );
  await Promise.all(tables.map((table) => sampleValues(table, run)));
  return {
    tables,
    relationships: [...declaredRelationships(tables, settings), ...inferredRelationships(tables)],
    synonyms: settings.synonyms,
  };
}

/**
 * The statement sampling the distinct short values of a table's text columns: one row, a list per column
 * (array_agg and array_slice, which the Trino dialect respells as Trino's slice).
 */
export function valueSampleSql(table: SchemaTable, text: readonly SchemaColumn[]): string {
  const lists = text.map((c) => {
    const column = sqlIdent(c.name);
    const values = `array_agg(DISTINCT ${column}) FILTER (WHERE length(${column}) <= ${maxValueLength})`;
    return `array_slice(${values}, 1, ${valuesPerColumn}) AS ${column}`;
  });
  return `SELECT ${lists.join(', ')} FROM ${sqlIdent(table.source)}.${sqlIdent(table.name)}`;
}

async function sampleValues(table: SchemaTable, run: (sql: string) => Promise<SqlResult>): Promise<void> {
  const text = table.columns.filter((c) => c.kind === 'text');
  if (text.length === 0) return;
  try {
    const result = await run(valueSampleSql(table, text));
    const row = result.rows[0] ?? {};
    for (const column of text) {
      const values = row[column.name];
      if (Array.isArray(values)) {
        column.values = values.filter((v): v is string => typeof v === 'string' && /[a-z]/i.test(v));
        column.valuesCut = values.length >= valuesPerColumn;
      }
    }
  } catch {
    // A table that cannot be sampled is still linkable by its names.
  }
}

function findColumn(
  tables: SchemaTable[],
  source: string,
  table: string,
  column: string,
): { table: string; column: string } | undefined {
  const t = tables.find((x) => x.key === tableKey(source, table));
  const c = t?.columns.find((x) => x.name.toLowerCase() === column.toLowerCase());
  return t && c ? { table: t.key, column: c.name } : undefined;
}

function declaredRelationships(tables: SchemaTable[], settings: NlSettings): Relationship[] {
  const found: Relationship[] = [];
  for (const r of settings.relationships) {
    const from = findColumn(tables, r.from.source, r.from.table, r.from.column);
    const to = findColumn(tables, r.to.source, r.to.table, r.to.column);
    if (from && to) found.push({ from, to });
  }
  return found;
}

const singular = (word: string): string =>
  word
    .replace(/ies$/, 'y')
    .replace(/(ss|sh|ch|x)es$/, '$1')
    .replace(/([^s])s$/, '$1');

/** Whether a word of a name starts at `at` (after an underscore, or at a capital: `sbCust|Id`, `order_|id`). */
const wordStart = (name: string, at: number): boolean =>
  at === 0 || name[at - 1] === '_' || /[A-Z0-9]/.test(name[at] ?? '');

/** The longest prefix all `names` share that ends where a word of each starts (`sbCust` of sbCustId, sbCustName;
 * `order_`), or ''. */
function sharedPrefix(names: readonly string[]): string {
  if (names.length < 2) return '';
  let length = names[0].length;
  for (const name of names)
    while (length > 0 && name.slice(0, length).toLowerCase() !== names[0].slice(0, length).toLowerCase()) length--;
  while (length > 0 && !names.every((n) => n.length > length && wordStart(n, length))) length--;
  return length >= 2 ? names[0].slice(0, length) : '';
}

/**
 * Relationships of schemas that prefix every column with its table's abbreviation (`sbTransaction.sbTxCustId`,
 * `sbCustomer.sbCustId`; `orders.order_customer_id`, `customers.customer_id`): a column whose name after its
 * table's prefix is another table's leading identifier after the part of the prefixes both tables share
 * (`CustId`) references that identifier.
 */
function prefixedReferences(tables: SchemaTable[]): Relationship[] {
  const found: Relationship[] = [];
  const prefixes = new Map(tables.map((t) => [t, sharedPrefix(t.columns.map((c) => c.name))]));
  for (const target of tables) {
    const key = target.columns[0];
    const own = prefixes.get(target)!;
    if (!key || own === '' || !/id$/i.test(key.name)) continue;
    for (const table of tables) {
      const prefix = prefixes.get(table)!;
      if (table === target || table.source !== target.source || prefix === '') continue;
      const shared = sharedPrefix([own, prefix]).length;
      const wanted = key.name.slice(shared).toLowerCase();
      const column =
        shared < own.length
          ? table.columns.find((c) => c.name.slice(prefix.length).toLowerCase() === wanted)
          : undefined;
      if (column)
        found.push({ from: { table: table.key, column: column.name }, to: { table: target.key, column: key.name } });
    }
  }
  return found;
}

/**
 * Whether `column` of `table` is named for another table of its source that has a column of that name
 * (`program_course.program_id` beside `program.program_id`): it references that table rather than keying its own.
 */
function namesOtherTable(tables: readonly SchemaTable[], table: SchemaTable, column: string): boolean {
  const m = /^(.+?)_?(id|code|name)$/i.exec(column);
  return tables.some(
    (t) =>
      t !== table &&
      t.source === table.source &&
      m !== null &&
      singular(t.name.toLowerCase()) === singular(m[1].toLowerCase()) &&
      t.columns.some((c) => c.name.toLowerCase() === column.toLowerCase()),
  );
}

/**
 * Relationships by naming convention inside one source: a column `<name>_id` (or `<name>id`) of one
 * table references the key column (`id` or the same name) of the table called `<name>` (or its plural);
 * and a column named like another table's leading identifier (`writes.aid` -> `author.aid`,
 * `lake.state_name` -> `state.state_name`) references it.
 */
function inferredRelationships(tables: SchemaTable[]): Relationship[] {
  const found: Relationship[] = [];
  const seen = new Set<string>();
  const add = (r: Relationship): void => {
    const key = [`${r.from.table}.${r.from.column}`, `${r.to.table}.${r.to.column}`].sort().join('=');
    if (seen.has(key)) return;
    seen.add(key);
    found.push(r);
  };
  for (const target of tables) {
    // A leading identifier with a prefix (aid, flight_id, airline_code, state_name), not a bare id or name.
    // A table of identifiers only (writes(aid, pid)) links others; it is not what their keys point to.
    if (target.columns.every((c) => /(id|_code|_name)$/i.test(c.name))) continue;
    const first = target.columns[0];
    const leading =
      first &&
      /^.+(id|_code|_name)$/i.test(first.name) &&
      !/^(id|name|code)$/i.test(first.name) &&
      !namesOtherTable(tables, target, first.name)
        ? [first]
        : [];
    // Also the column named by the table's initial (publication.pid, author.aid), wherever it stands.
    const initial = target.columns.filter(
      (c) => c.name.toLowerCase() === `${target.name[0].toLowerCase()}id` && c !== first,
    );
    for (const key of [...leading, ...initial])
      for (const table of tables) {
        const column =
          table !== target && table.source === target.source
            ? table.columns.find((c) => c.name.toLowerCase() === key.name.toLowerCase())
            : undefined;
        if (column)
          add({ from: { table: table.key, column: column.name }, to: { table: target.key, column: key.name } });
      }
  }
  for (const r of prefixedReferences(tables)) add(r);
  for (const table of tables) {
    for (const column of table.columns) {
      const m = /^(.+?)_?id$/i.exec(column.name);
      if (!m) continue;
      const target = tables.find(
        (t) =>
          t !== table && t.source === table.source && singular(t.name.toLowerCase()) === singular(m[1].toLowerCase()),
      );
      const key =
        target?.columns.find((c) => c.name.toLowerCase() === 'id') ??
        target?.columns.find((c) => c.name.toLowerCase() === column.name.toLowerCase());
      if (target && key)
        add({ from: { table: table.key, column: column.name }, to: { table: target.key, column: key.name } });
    }
  }
  return found;
}
