import type { ComparisonOp, Filter, FilterValue, TableInfo } from '../connectors/types.js';
import { constantKind, valueKind } from '../connectors/filters.js';

/** DuckDB's JSON form of a parsed statement (`json_serialize_sql`); only the fields we read are typed. */
export type AstNode = Record<string, unknown>;

/** A `<source>.<table>` (or `<source>.main.<table>`) reference found in a query. */
export interface TableReference {
  source: string;
  table: string;
}

/** Where a reference's key is `source.table`, lower-cased as DuckDB resolves names. */
export const referenceKey = (source: string, table: string): string => `${source.toLowerCase()}.${table.toLowerCase()}`;

/** What a query needs from its sources, computed from its syntax tree before anything is loaded. */
export interface QueryShape {
  /** Distinct qualified references, in order of appearance. */
  references: TableReference[];
  /** Every name part of every column reference, lower-cased (a superset of the columns used). */
  columnNames: Set<string>;
  /** Whether a `*`, `COLUMNS(...)` or whole-row reference makes every column needed. */
  star: boolean;
  /** How many times each reference key occurs. */
  occurrences: Map<string, number>;
  /** Top-level WHERE conjuncts of each SELECT, with the tables of its FROM clause. */
  selects: SelectScope[];
}

interface ScopeTable {
  key: string;
  /** Names the table is known by in its SELECT: its alias, or its table name. */
  name: string;
}

interface SelectScope {
  tables: ScopeTable[];
  /** False when the FROM clause holds anything but plain joins of our tables. */
  plain: boolean;
  conjuncts: AstNode[];
}

const pushableJoinTypes = new Set(['INNER', 'LEFT', 'RIGHT', 'OUTER']);
const pushableRefTypes = new Set(['REGULAR', 'NATURAL', 'CROSS']);

/** Whether a value of the tree is a node (an object, not an array). */
export const isNode = (value: unknown): value is AstNode =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Visits every object in the tree, depth first. */
export function visit(node: unknown, fn: (node: AstNode) => void): void {
  if (Array.isArray(node)) for (const item of node) visit(item, fn);
  else if (isNode(node)) {
    fn(node);
    for (const value of Object.values(node)) if (value !== null && typeof value === 'object') visit(value, fn);
  }
}

/** The source and table of a BASE_TABLE node when it is qualified with a source; else undefined. */
function qualifiedReference(node: AstNode): TableReference | undefined {
  const catalog = String(node.catalog_name ?? '');
  const schema = String(node.schema_name ?? '');
  const table = String(node.table_name ?? '');
  if (catalog !== '')
    return schema === '' || schema.toLowerCase() === 'main'
      ? { source: catalog, table }
      : { source: catalog, table: `${schema}.${table}` };
  if (schema !== '') return { source: schema, table };
  return undefined;
}

/** Collects the base tables of a FROM clause; `plain` stays true only for joins we may push filters through. */
function fromTables(from: unknown, out: ScopeTable[]): boolean {
  if (!isNode(from)) return true;
  if (from.type === 'EMPTY') return true;
  if (from.type === 'BASE_TABLE') {
    const ref = qualifiedReference(from);
    if (!ref || from.sample) return false;
    out.push({
      key: referenceKey(ref.source, ref.table),
      name: String(from.alias || ref.table.split('.').pop()).toLowerCase(),
    });
    return true;
  }
  if (from.type === 'JOIN') {
    const joinOk = pushableJoinTypes.has(String(from.join_type)) && pushableRefTypes.has(String(from.ref_type));
    const left = fromTables(from.left, out);
    const right = fromTables(from.right, out);
    return joinOk && left && right;
  }
  return false;
}

function conjunctsOf(where: unknown): AstNode[] {
  if (!isNode(where)) return [];
  if (where.class === 'CONJUNCTION' && where.type === 'CONJUNCTION_AND')
    return (where.children as unknown[]).flatMap(conjunctsOf);
  return [where];
}

/**
 * Reads a parsed query (the `statements[0].node` of `json_serialize_sql`) and records what the engine
 * must load: table references, the column names mentioned, and candidate filters.
 */
export function analyseQuery(root: unknown): QueryShape {
  const shape: QueryShape = {
    references: [],
    columnNames: new Set(),
    star: false,
    occurrences: new Map(),
    selects: [],
  };
  const tableNames = new Set<string>();
  visit(root, (node) => {
    if (node.type === 'BASE_TABLE') {
      const ref = qualifiedReference(node);
      const name = String(node.alias || node.table_name || '').toLowerCase();
      if (name) tableNames.add(name);
      if (!ref) return;
      const key = referenceKey(ref.source, ref.table);
      if (!shape.occurrences.has(key)) shape.references.push(ref);
      shape.occurrences.set(key, (shape.occurrences.get(key) ?? 0) + 1);
    } else if (node.class === 'COLUMN_REF' && Array.isArray(node.column_names)) {
      for (const part of node.column_names) shape.columnNames.add(String(part).toLowerCase());
    } else if (node.class === 'STAR') {
      shape.star = true;
    } else if (node.type === 'JOIN' && Array.isArray(node.using_columns)) {
      for (const column of node.using_columns) shape.columnNames.add(String(column).toLowerCase());
    } else if (node.type === 'SELECT_NODE') {
      const tables: ScopeTable[] = [];
      // A sample of the SELECT is drawn before its WHERE clause: filtering earlier would change it.
      const plain = fromTables(node.from_table, tables) && !node.sample;
      shape.selects.push({ tables, plain, conjuncts: conjunctsOf(node.where_clause) });
    }
  });
  // A bare column reference that names a table (`SELECT t FROM src.t`) means the whole row.
  const bare = new Set<string>();
  visit(root, (node) => {
    if (node.class === 'COLUMN_REF' && Array.isArray(node.column_names) && node.column_names.length === 1)
      bare.add(String(node.column_names[0]).toLowerCase());
  });
  for (const name of bare) if (tableNames.has(name)) shape.star = true;
  return shape;
}

/**
 * Whether the query reads no table at all: no SELECT of it has a FROM clause (`SELECT 1`, `SELECT now()`). Such a
 * query may take the short lane (`limits.short_lane`): it waits for no source and loads nothing.
 */
export function readsNoTable(root: unknown): boolean {
  let reads = false;
  visit(root, (node) => {
    if (node.type === 'SELECT_NODE' && isNode(node.from_table) && node.from_table.type !== 'EMPTY') reads = true;
  });
  return !reads;
}

/** A constant of the syntax tree as a filter value, when it is one we can pass on exactly. */
export function constantValue(node: unknown): FilterValue | undefined {
  if (!isNode(node)) return undefined;
  if (node.class === 'CAST' && isNode(node.cast_type) && node.cast_type.id === 'BOOLEAN') {
    const inner = constantValue(node.child);
    if (inner === 't' || inner === 'true') return true;
    if (inner === 'f' || inner === 'false') return false;
    return undefined;
  }
  if (node.class !== 'CONSTANT' || !isNode(node.value) || node.value.is_null) return undefined;
  const type = isNode(node.value.type) ? node.value.type : {};
  const raw = node.value.value;
  switch (type.id) {
    case 'VARCHAR':
      return typeof raw === 'string' ? raw : undefined;
    case 'BOOLEAN':
      return typeof raw === 'boolean' ? raw : undefined;
    case 'TINYINT':
    case 'SMALLINT':
    case 'INTEGER':
    case 'BIGINT':
      // JSON numbers beyond 2^53 have already lost digits: such constants are never pushed.
      return typeof raw === 'number' && Number.isSafeInteger(raw) ? raw : undefined;
    case 'DOUBLE':
    case 'FLOAT':
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
    case 'DECIMAL': {
      const info = isNode(type.type_info) ? type.type_info : {};
      const width = Number(info.width);
      const scale = Number(info.scale);
      if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || width > 15) return undefined;
      return raw / 10 ** scale;
    }
    default:
      return undefined;
  }
}

/** The comparison seen from the other side (`5 < x` is `x > 5`). */
export const flipped: Record<ComparisonOp, ComparisonOp> = {
  '=': '=',
  '<>': '<>',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};
/** Comparison node types of the syntax tree, by their operator. */
export const comparisonTypes: Record<string, ComparisonOp> = {
  COMPARE_EQUAL: '=',
  COMPARE_NOTEQUAL: '<>',
  COMPARE_LESSTHAN: '<',
  COMPARE_LESSTHANOREQUALTO: '<=',
  COMPARE_GREATERTHAN: '>',
  COMPARE_GREATERTHANOREQUALTO: '>=',
};

interface ColumnTarget {
  key: string;
  column: string;
}

/**
 * Computes the filters that may be pushed to each referenced table. A conjunct is pushed only when
 * its table occurs once in the whole query, sits in a FROM clause of plain joins, and the comparison
 * is between one of its columns and a constant of the column's kind. Comparisons reject NULLs, so the
 * pushed filter keeps every row that could survive the WHERE clause, whatever the join type.
 */
export function pushableFilters(shape: QueryShape, tables: ReadonlyMap<string, TableInfo>): Map<string, Filter[]> {
  const result = new Map<string, Filter[]>();
  for (const scope of shape.selects) {
    if (!scope.plain || scope.tables.length === 0) continue;
    const resolve = (node: unknown): ColumnTarget | undefined => {
      if (!isNode(node) || node.class !== 'COLUMN_REF' || !Array.isArray(node.column_names)) return undefined;
      const parts = node.column_names.map((p) => String(p).toLowerCase());
      const column = parts[parts.length - 1];
      const candidates = scope.tables.filter((t) => {
        if (parts.length === 1) return true;
        const qualifier = parts.slice(0, -1).join('.');
        return qualifier === t.name || qualifier === t.key || qualifier === t.key.replace('.', '.main.');
      });
      const owners = candidates.filter((t) => tables.get(t.key)?.columns.some((c) => c.name.toLowerCase() === column));
      if (owners.length !== 1 || shape.occurrences.get(owners[0].key) !== 1) return undefined;
      const info = tables.get(owners[0].key)!;
      return { key: owners[0].key, column: info.columns.find((c) => c.name.toLowerCase() === column)!.name };
    };
    const add = (target: ColumnTarget, filter: Filter) => {
      const info = tables.get(target.key)!;
      const kind = valueKind(info.columns.find((c) => c.name === target.column)!.type);
      const values = filter.op === 'in' ? filter.values : [filter.value];
      if (!values.every((v) => constantKind(v) === kind)) return;
      result.set(target.key, [...(result.get(target.key) ?? []), filter]);
    };
    for (const conjunct of scope.conjuncts) {
      const op = comparisonTypes[String(conjunct.type)];
      if (conjunct.class === 'COMPARISON' && op) {
        const leftColumn = resolve(conjunct.left);
        const rightColumn = resolve(conjunct.right);
        const leftValue = constantValue(conjunct.left);
        const rightValue = constantValue(conjunct.right);
        if (leftColumn && rightValue !== undefined)
          add(leftColumn, { column: leftColumn.column, op, value: rightValue });
        else if (rightColumn && leftValue !== undefined)
          add(rightColumn, { column: rightColumn.column, op: flipped[op], value: leftValue });
      } else if (conjunct.type === 'COMPARE_IN' && Array.isArray(conjunct.children)) {
        const [first, ...rest] = conjunct.children as unknown[];
        const target = resolve(first);
        const values = rest.map(constantValue);
        if (target && values.length > 0 && values.every((v) => v !== undefined))
          add(target, { column: target.column, op: 'in', values: values as FilterValue[] });
      } else if (conjunct.class === 'BETWEEN') {
        const target = resolve(conjunct.input);
        const lower = constantValue(conjunct.lower);
        const upper = constantValue(conjunct.upper);
        if (target && lower !== undefined) add(target, { column: target.column, op: '>=', value: lower });
        if (target && upper !== undefined) add(target, { column: target.column, op: '<=', value: upper });
      }
    }
  }
  return result;
}

/**
 * The columns of `table` the query may use: every column whose name appears in a column reference,
 * all of them after a `*`, and at least one so that row counts survive (`count(*)`).
 */
export function neededColumns(shape: QueryShape, table: TableInfo): TableInfo['columns'] {
  if (shape.star) return table.columns;
  const needed = table.columns.filter((c) => shape.columnNames.has(c.name.toLowerCase()));
  return needed.length > 0 ? needed : table.columns.slice(0, 1);
}
