import type {
  ColumnInfo,
  Filter,
  FilterValue,
  PartialAggregate,
  PartialAggregation,
  TableInfo,
} from '../connectors/types.js';
import {
  comparisonTypes,
  constantValue,
  flipped,
  isNode,
  referenceKey,
  visit,
  type AstNode,
  type QueryShape,
} from './sql-analysis.js';

/** What DuckDB's catalog says about function names (lower-case), to recognise them in the tree. */
export interface FunctionKinds {
  aggregates: ReadonlySet<string>;
  /** Scalar functions that may differ per call (random, nextval...) and macros (which may hide either). */
  unsafe: ReadonlySet<string>;
}

/**
 * A partial aggregation of one table pushed to its source, and the query rewritten to finish it: the
 * table is read from `<source>.<schema>.<table>` (the partial rows), and each aggregate over it is
 * replaced by the aggregate of its partial results.
 */
export interface AggregatePushdown {
  key: string;
  source: string;
  table: string;
  /** The schema of the source's catalog that holds the partial table. */
  schema: string;
  /** What the source is asked to compute; its `columns` are the partial table's. */
  aggregation: PartialAggregation;
  /**
   * The query's tree over the partial table. `names` are the result column names of the original
   * query (from preparing it); select items whose aggregates were replaced keep them as aliases.
   */
  rewrite(names: readonly string[]): AstNode;
}

export const partialSchema = 'aw_partial';

const integerTypes = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT']);
const exactSum = (type: string) => integerTypes.has(type) || type.startsWith('DECIMAL');
/** Types whose order is the same in PostgreSQL and DuckDB (text order depends on collation; NaN on the engine). */
const sameOrder = (type: string) => exactSum(type) || ['DATE', 'TIMESTAMP', 'TIMESTAMP WITH TIME ZONE'].includes(type);
/** Group keys must be grouped by the source exactly as DuckDB would: floats merge -0 and 0 there. */
const groupable = (type: string) => type !== 'FLOAT' && type !== 'DOUBLE';

/** The tree with some nodes replaced (by identity); everything else copied. */
function replaced(node: unknown, replacements: ReadonlyMap<unknown, AstNode>): unknown {
  const replacement = replacements.get(node);
  if (replacement) return replacement;
  if (Array.isArray(node)) return node.map((item) => replaced(item, replacements));
  if (isNode(node))
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, replaced(value, replacements)]));
  return node;
}

const noOrder = { type: 'ORDER_MODIFIER', orders: [] };
const columnRef = (qualifier: string, name: string): AstNode => ({
  class: 'COLUMN_REF',
  type: 'COLUMN_REF',
  alias: '',
  column_names: [qualifier, name],
});
const call = (name: string, ...children: AstNode[]): AstNode => ({
  class: 'FUNCTION',
  type: 'FUNCTION',
  alias: '',
  function_name: name,
  schema: '',
  catalog: '',
  children,
  filter: null,
  order_bys: noOrder,
  distinct: false,
  is_operator: ['/', '*'].includes(name),
  export_state: false,
});
const cast = (child: AstNode, id: string): AstNode => ({
  class: 'CAST',
  type: 'OPERATOR_CAST',
  alias: '',
  child,
  cast_type: { id, type_info: null },
  try_cast: false,
});
const integer = (value: number): AstNode => ({
  class: 'CONSTANT',
  type: 'VALUE_CONSTANT',
  alias: '',
  value: { type: { id: 'BIGINT', type_info: null }, is_null: false, value },
});
const coalesce = (...children: AstNode[]): AstNode => ({
  class: 'OPERATOR',
  type: 'OPERATOR_COALESCE',
  alias: '',
  children,
});

interface ScopeTable {
  key: string;
  source: string;
  table: string;
  /** The name the query knows it by (alias or table name), lower-case. */
  name: string;
  node: AstNode;
  info: TableInfo;
}

/** Collects the tables of a FROM clause; false unless it is made only of inner and cross joins of source tables. */
function innerJoinTables(from: unknown, tables: ReadonlyMap<string, TableInfo>, out: ScopeTable[]): boolean {
  if (!isNode(from)) return false;
  if (from.type === 'JOIN') {
    const inner = from.join_type === 'INNER' && (from.ref_type === 'REGULAR' || from.ref_type === 'CROSS');
    return (
      inner &&
      (from.using_columns as unknown[]).length === 0 &&
      innerJoinTables(from.left, tables, out) &&
      innerJoinTables(from.right, tables, out)
    );
  }
  if (from.type !== 'BASE_TABLE' || from.sample || from.at_clause || (from.column_name_alias as unknown[]).length > 0)
    return false;
  const catalog = String(from.catalog_name ?? '');
  const schema = String(from.schema_name ?? '');
  if (catalog !== '' && schema.toLowerCase() !== 'main') return false;
  const source = catalog || schema;
  const table = String(from.table_name);
  const info = tables.get(referenceKey(source, table));
  if (!source || !info) return false;
  out.push({
    key: referenceKey(source, table),
    source,
    table: info.name,
    name: String(from.alias || table).toLowerCase(),
    node: from,
    info,
  });
  return true;
}

/** Everything in the tree that rules a rewrite out, whichever table is pushed. */
function unsuitable(root: AstNode, functions: FunctionKinds): boolean {
  let selects = 0;
  let bad = false;
  visit(root, (node) => {
    if (node.type === 'SELECT_NODE') selects++;
    if (node.class === 'SUBQUERY' || node.class === 'WINDOW' || node.class === 'LAMBDA') bad = true;
    if (node.class === 'FUNCTION' && functions.unsafe.has(String(node.function_name).toLowerCase())) bad = true;
    // The rewritten tree goes back through JSON: an integer JSON cannot hold exactly would change.
    // (`query_location` is dropped before the tree goes back.)
    for (const [key, value] of Object.entries(node))
      if (
        key !== 'query_location' &&
        typeof value === 'number' &&
        Number.isInteger(value) &&
        !Number.isSafeInteger(value)
      )
        bad = true;
  });
  const cteMap = isNode(root.cte_map) ? (root.cte_map.map as unknown[]) : [];
  return (
    bad ||
    selects !== 1 ||
    root.type !== 'SELECT_NODE' ||
    cteMap.length > 0 ||
    Boolean(root.sample) ||
    Boolean(root.qualify)
  );
}

type Resolved = { kind: 'target'; column: ColumnInfo } | { kind: 'other' } | { kind: 'unknown' };

/** Which table a column reference names, as DuckDB would bind it; `unknown` when it cannot be told. */
function resolver(scope: readonly ScopeTable[], target: ScopeTable): (node: AstNode) => Resolved {
  const columnOf = (t: ScopeTable, name: string) => t.info.columns.find((c) => c.name.toLowerCase() === name);
  return (node) => {
    const parts = (node.column_names as unknown[]).map((p) => String(p).toLowerCase());
    const name = parts[parts.length - 1];
    if (parts.length > 2) return { kind: 'unknown' };
    if (parts.length === 2) {
      const owners = scope.filter((t) => t.name === parts[0]);
      if (owners.length !== 1) return owners.length === 0 ? { kind: 'other' } : { kind: 'unknown' };
      if (owners[0] !== target) return { kind: 'other' };
      const column = columnOf(target, name);
      return column ? { kind: 'target', column } : { kind: 'unknown' };
    }
    const owners = scope.filter((t) => columnOf(t, name));
    if (!owners.includes(target)) return { kind: 'other' };
    return owners.length === 1 ? { kind: 'target', column: columnOf(target, name)! } : { kind: 'unknown' };
  };
}

/** How one aggregate call is finished over the partial rows. */
type Finish = { kind: 'keep' } | { kind: 'replace'; partials: PartialAggregate[]; build: (refs: AstNode[]) => AstNode };

const countOf = (refs: AstNode[]) => cast(coalesce(call('sum', refs[0]), integer(0)), 'BIGINT');

/** DuckDB's avg of exact numbers, from the sum and count: sum / count, scaled as DuckDB does for decimals. */
function averageOf(type: string): ((refs: AstNode[]) => AstNode) | undefined {
  if (integerTypes.has(type))
    return ([sum, count]) => call('/', cast(call('sum', sum), 'DOUBLE'), cast(call('sum', count), 'DOUBLE'));
  const scale = Number(/^DECIMAL\(\d+,(\d+)\)$/.exec(type)?.[1]);
  if (!Number.isInteger(scale) || scale > 15) return undefined;
  const factor = 10 ** scale;
  // The unscaled integer sum over (count x 10^scale), as DuckDB's own decimal average divides.
  return ([sum, count]) =>
    call(
      '/',
      cast(cast(call('*', call('sum', sum), integer(factor)), 'HUGEINT'), 'DOUBLE'),
      call('*', cast(call('sum', count), 'DOUBLE'), integer(factor)),
    );
}

/** How to finish `node` (an aggregate call), or undefined when the query cannot be rewritten. */
function finishOf(node: AstNode, resolve: (node: AstNode) => Resolved): Finish | undefined {
  const name = String(node.function_name).toLowerCase();
  const children = node.children as AstNode[];
  const orders = isNode(node.order_bys) ? (node.order_bys.orders as unknown[]) : [];
  if (node.filter || orders.length > 0 || node.export_state || node.schema || node.catalog) return undefined;
  if (!children.every((c) => c.class === 'COLUMN_REF' || c.class === 'CONSTANT')) return undefined;
  const resolved = children.filter((c) => c.class === 'COLUMN_REF').map(resolve);
  if (resolved.some((r) => r.kind === 'unknown')) return undefined;
  // Duplicates do not change a DISTINCT aggregate, min or max: they run as written, their columns grouped by.
  if (node.distinct) return { kind: 'keep' };
  if (name === 'count_star' && children.length === 0)
    return { kind: 'replace', partials: [{ fn: 'count' }], build: countOf };
  if (children.length !== 1 || resolved.length !== 1) return undefined;
  const only = resolved[0];
  if (only.kind !== 'target') return name === 'min' || name === 'max' ? { kind: 'keep' } : undefined;
  const column = only.column;
  switch (name) {
    case 'count':
      return { kind: 'replace', partials: [{ fn: 'count', column: column.name }], build: countOf };
    case 'sum':
      return exactSum(column.type)
        ? { kind: 'replace', partials: [{ fn: 'sum', column: column.name }], build: ([sum]) => call('sum', sum) }
        : undefined;
    case 'avg':
    case 'mean': {
      const average = averageOf(column.type);
      return average
        ? {
            kind: 'replace',
            partials: [
              { fn: 'sum', column: column.name },
              { fn: 'count', column: column.name },
            ],
            build: average,
          }
        : undefined;
    }
    case 'min':
    case 'max':
      return sameOrder(column.type)
        ? { kind: 'replace', partials: [{ fn: name, column: column.name }], build: ([value]) => call(name, value) }
        : { kind: 'keep' };
    default:
      return undefined;
  }
}

/** The DuckDB type of a partial aggregate's column, chosen so that finishing it gives DuckDB's own result type. */
function partialType(aggregate: PartialAggregate, info: TableInfo): string {
  if (aggregate.fn === 'count') return 'BIGINT';
  const type = info.columns.find((c) => c.name === aggregate.column)!.type;
  if (aggregate.fn !== 'sum') return type;
  return integerTypes.has(type) ? 'HUGEINT' : `DECIMAL(38,${/,(\d+)\)$/.exec(type)![1]})`;
}

/**
 * Plans an aggregation pushdown (eager aggregation, as Trino and Presto push aggregations into their
 * connectors): for a single SELECT over inner joins whose aggregates of one pushable table are all
 * decomposable (count, sum and avg of exact numbers, min and max of same-order types) or insensitive
 * to duplicates (DISTINCT, min/max), that table is grouped at the source by every column the rest of
 * the query uses (join keys, filters, grouping, DISTINCT arguments), and each aggregate is finished
 * over the groups. Filters on those columns and the join then see one row per group instead of each
 * row, which changes no result because they depend on the grouped columns only. Anything else (outer
 * joins, subqueries, windows, volatile functions, floating-point sums, ambiguous names) keeps the
 * plain scan.
 */
export function planAggregatePushdown(
  root: unknown,
  shape: QueryShape,
  tables: ReadonlyMap<string, TableInfo>,
  pushable: (key: string) => boolean,
  functions: FunctionKinds,
): AggregatePushdown | undefined {
  if (!isNode(root) || shape.star || unsuitable(root, functions)) return undefined;
  const scope: ScopeTable[] = [];
  if (!innerJoinTables(root.from_table, tables, scope)) return undefined;
  for (const target of scope) {
    if (
      !pushable(target.key) ||
      shape.occurrences.get(target.key) !== 1 ||
      scope.filter((t) => t.name === target.name).length !== 1
    )
      continue;
    const plan = tryTarget(root, scope, target, functions);
    if (plan) return plan;
  }
  return undefined;
}

/** A constant compared exactly alike by DuckDB and a database: an integer or a decimal (not a double). */
function exactNumber(node: AstNode): FilterValue | undefined {
  const type = isNode(node.value) && isNode(node.value.type) ? String(node.value.type.id) : '';
  return node.class === 'CONSTANT' && (integerTypes.has(type) || type === 'DECIMAL') ? constantValue(node) : undefined;
}

/**
 * Top-level WHERE conjuncts that compare an integer or decimal column of the target with exact
 * numbers: the source must apply them (they are part of the offered aggregation), so the rewrite drops
 * them and their columns need not be grouped by.
 */
function sourceFilters(root: AstNode, resolve: (node: AstNode) => Resolved): Map<AstNode, Filter[]> {
  const found = new Map<AstNode, Filter[]>();
  const column = (node: unknown) => {
    if (!isNode(node) || node.class !== 'COLUMN_REF') return undefined;
    const resolved = resolve(node);
    return resolved.kind === 'target' && exactSum(resolved.column.type) ? resolved.column.name : undefined;
  };
  const flatten = (node: unknown): AstNode[] =>
    isNode(node) && node.type === 'CONJUNCTION_AND'
      ? (node.children as AstNode[]).flatMap(flatten)
      : isNode(node)
        ? [node]
        : [];
  for (const conjunct of flatten(root.where_clause)) {
    const op = comparisonTypes[String(conjunct.type)];
    if (conjunct.class === 'COMPARISON' && op) {
      const [left, right] = [conjunct.left as AstNode, conjunct.right as AstNode];
      const name = column(left) ?? column(right);
      const value = column(left) ? exactNumber(right) : exactNumber(left);
      if (name !== undefined && value !== undefined)
        found.set(conjunct, [{ column: name, op: column(left) ? op : flipped[op], value }]);
    } else if (conjunct.class === 'BETWEEN') {
      const name = column(conjunct.input);
      const [lower, upper] = [exactNumber(conjunct.lower as AstNode), exactNumber(conjunct.upper as AstNode)];
      if (name !== undefined && lower !== undefined && upper !== undefined)
        found.set(conjunct, [
          { column: name, op: '>=', value: lower },
          { column: name, op: '<=', value: upper },
        ]);
    } else if (conjunct.type === 'COMPARE_IN') {
      const [first, ...rest] = conjunct.children as AstNode[];
      const name = column(first);
      const values = rest.map(exactNumber);
      if (name !== undefined && values.every((v) => v !== undefined))
        found.set(conjunct, [{ column: name, op: 'in', values: values as FilterValue[] }]);
    }
  }
  return found;
}

/** The WHERE clause without `dropped` conjuncts (null when none is left). */
function whereWithout(where: unknown, dropped: ReadonlyMap<AstNode, unknown>): unknown {
  if (!isNode(where)) return where;
  if (dropped.has(where)) return null;
  if (where.type !== 'CONJUNCTION_AND') return where;
  const children = (where.children as unknown[])
    .map((child) => whereWithout(child, dropped))
    .filter((child) => child !== null);
  return children.length === 0 ? null : children.length === 1 ? children[0] : { ...where, children };
}

function tryTarget(
  root: AstNode,
  scope: readonly ScopeTable[],
  target: ScopeTable,
  functions: FunctionKinds,
): AggregatePushdown | undefined {
  const resolve = resolver(scope, target);
  const finishes = new Map<AstNode, Extract<Finish, { kind: 'replace' }>>();
  const keys = new Map<string, ColumnInfo>();
  const filters = sourceFilters(root, resolve);
  let possible = true;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return void node.forEach(walk);
    if (!isNode(node) || node.type === 'BASE_TABLE' || filters.has(node)) return;
    if (node.class === 'FUNCTION' && functions.aggregates.has(String(node.function_name).toLowerCase())) {
      const finish = finishOf(node, resolve);
      if (!finish) possible = false;
      else if (finish.kind === 'replace') return void finishes.set(node, finish);
    } else if (node.class === 'COLUMN_REF') {
      const resolved = resolve(node);
      if (resolved.kind === 'unknown') possible = false;
      else if (resolved.kind === 'target') keys.set(resolved.column.name, resolved.column);
      return;
    }
    for (const value of Object.values(node)) if (value !== null && typeof value === 'object') walk(value);
  };
  walk(root);
  if (!possible || finishes.size === 0 || [...keys.values()].some((k) => !groupable(k.type))) return undefined;

  // One partial aggregate per distinct (function, column), named apart from the group-by columns.
  const aggregates: PartialAggregate[] = [];
  const slot = (partial: PartialAggregate) => {
    const found = aggregates.findIndex((a) => a.fn === partial.fn && a.column === partial.column);
    return found >= 0 ? found : aggregates.push(partial) - 1;
  };
  const usedNames = new Set([...keys.keys()].map((k) => k.toLowerCase()));
  const names: string[] = [];
  const nameOf = (index: number) => {
    while (names.length <= index) {
      let candidate = `aw_partial_${names.length}`;
      while (usedNames.has(candidate)) candidate = `_${candidate}`;
      names.push(candidate);
    }
    return names[index];
  };
  const built = new Map<unknown, AstNode>();
  for (const [node, finish] of finishes) {
    const refs = finish.partials.map((p) => columnRef(target.name, nameOf(slot(p))));
    built.set(node, { ...finish.build(refs), alias: node.alias });
  }
  const groupBy = [...keys.values()];
  const columns = [...groupBy, ...aggregates.map((a, i) => ({ name: nameOf(i), type: partialType(a, target.info) }))];
  built.set(target.node, {
    ...target.node,
    catalog_name: target.source,
    schema_name: partialSchema,
    table_name: target.table,
    alias: target.name,
  });

  return {
    key: target.key,
    source: target.source,
    table: target.table,
    schema: partialSchema,
    aggregation: { groupBy, aggregates, columns, filters: [...filters.values()].flat() },
    rewrite(resultNames) {
      const select = root.select_list as AstNode[];
      if (resultNames.length !== select.length)
        throw new Error(`the query has ${select.length} select items but ${resultNames.length} result columns`);
      const tree = replaced({ ...root, where_clause: whereWithout(root.where_clause, filters) }, built) as AstNode;
      // A replaced aggregate would otherwise change its column's default name (`count_star()`).
      const items = (tree.select_list as AstNode[]).map((item, i) =>
        item.alias === '' && containsAny(select[i], finishes) ? { ...item, alias: resultNames[i] } : item,
      );
      return { ...tree, select_list: items };
    },
  };
}

function containsAny(node: unknown, nodes: ReadonlyMap<AstNode, unknown>): boolean {
  let found = false;
  visit(node, (n) => {
    if (nodes.has(n)) found = true;
  });
  return found;
}
