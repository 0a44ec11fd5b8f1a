import { templateParts, termMapSql } from './term-sql.js';
import { numberOf, type Value } from './value-sql.js';
import {
  fixedKind,
  keepFixed,
  nullTerm,
  termSuffixes,
  type Projection,
  type Rel,
  type SqlNames,
  type Translation,
} from './relation.js';
import { select, sliceSql, subquery } from './sql-select.js';

/** The direction at the end of every ORDER BY key `orderKeys` writes. */
const direction = / (ASC|DESC) NULLS (FIRST|LAST)$/;

/** SPARQL order of terms: unbound, blank nodes, IRIs, literals; numbers by value, the rest by text. */
export function orderKeys(value: Value, descending: boolean): string[] {
  const dir = descending ? ' DESC NULLS LAST' : ' ASC NULLS FIRST';
  if (value.kind === 'num') return [`${value.sql}${dir}`];
  if (value.kind === 'bool') return [`${value.sql}${dir}`];
  // Keys that are the same for every row (a fixed kind, a non-numeric datatype) order nothing.
  return [value.t, numberOf(value), value.v]
    .filter((key) => !/^(\d+|CAST\(NULL AS DOUBLE\))$/.test(key))
    .map((key) => `${key}${dir}`);
}

/** An ORDER BY key split into what it sorts and its direction (` ASC NULLS FIRST` or ` DESC NULLS LAST`). */
export function splitOrderKey(key: string): { expression: string; direction: string } {
  const found = key.match(direction)![0];
  return { expression: key.slice(0, -found.length), direction: found };
}

/** The columns of the variables `variables`, read through `alias`: only the value where the kind is fixed. */
export function output(names: SqlNames, rel: Rel, alias: string, variables: string[]) {
  const columns: Translation['columns'] = variables.map((name) => ({
    name,
    id: names.id(name),
    fixed: rel.vars.get(name) === false ? fixedKind(rel.fixed?.get(name)) : undefined,
  }));
  const items = columns.flatMap(({ id, fixed }) =>
    (fixed ? ['v'] : ['t', 'v', 'd', 'l']).map((k) => `${alias}.${id}_${k}`),
  );
  return { items, columns };
}

/**
 * The final SELECT of one basic graph pattern, straight from its tables. A template of a fixed kind is
 * read as its column parts and joined with its fixed text by the client: @duckdb/node-api reads each
 * string longer than 12 bytes with a native call, and rendered IRIs are long where their keys are short.
 */
export function branchOutput(names: SqlNames, rel: Rel, branch: NonNullable<Rel['branch']>): Translation {
  const read = new Map<string, Translation['columns'][number]>();
  const sql = branch((name, bound) => {
    const id = names.id(name);
    const fixed = rel.vars.get(name) === false ? fixedKind(rel.fixed?.get(name)) : undefined;
    const { map } = bound;
    if (fixed && map.kind === 'template' && !map.base) {
      const parts = templateParts(map, bound.alias, bound.types);
      read.set(name, {
        name,
        id,
        fixed,
        template: parts.map((part, i) => ('text' in part ? part : { column: `${id}_p${i}` })),
      });
      return parts.flatMap((part, i) => ('sql' in part ? [`${part.sql} AS ${id}_p${i}`] : []));
    }
    read.set(name, { name, id, fixed });
    const term = termMapSql(bound);
    return (fixed ? (['v'] as const) : (['t', 'v', 'd', 'l'] as const)).map((k) => `${term[k]} AS ${id}_${k}`);
  });
  return { sql, columns: [...rel.vars.keys()].map((name) => read.get(name)!) };
}

/** What a SELECT makes of its pattern's solutions: the projection and the solution modifiers. */
export interface SolutionModifiers {
  rel: Rel;
  /** The alias `rel`'s rows are read through. */
  alias: string;
  /** The projected variables, in order. */
  variables: string[];
  /** ORDER BY keys over `alias`, each ending in its direction. */
  order: string[];
  /** Whether `rel` is grouped: its ORDER BY is then already written over the grouped SELECT. */
  grouped: boolean;
  distinct: boolean;
  limit?: number;
  offset?: number;
}

/** The relation of a SELECT: projected, deduplicated, ordered and sliced, with no SELECT more than it needs. */
export function project(names: SqlNames, query: SolutionModifiers): Rel {
  const { rel, variables } = query;
  const slice = sliceSql(query);
  const plain =
    !query.grouped &&
    !query.distinct &&
    query.order.length === 0 &&
    variables.length > 0 &&
    new Set(variables).size === variables.length &&
    variables.every((n) => rel.vars.has(n));
  if (plain && rel.branch && !(slice && rel.sliced)) {
    // Some of one pattern's variables, unmodified, with LIMIT/OFFSET: that pattern's SELECT with fewer items and the
    // slice.
    const vars = new Map(variables.map((n) => [n, rel.vars.get(n)!]));
    const { branch } = rel;
    const projected = (project: Projection) => branch((n, bound) => (vars.has(n) ? project(n, bound) : [])) + slice;
    return {
      sql: projected(names.termItems),
      vars,
      fixed: keepFixed(vars, rel.fixed),
      branch: projected,
      sliced: rel.sliced || slice !== '',
    };
  }
  if (plain && !slice && variables.length === rel.vars.size) {
    // Projecting exactly the relation's variables, unmodified, is the relation itself: no SELECT around it to parse
    // and plan.
    const vars = new Map(variables.map((n) => [n, rel.vars.get(n)!]));
    return { sql: rel.sql, vars, fixed: keepFixed(vars, rel.fixed) };
  }
  const { alias, order, limit, offset } = query;
  const items = variables.map((n) => names.termColumns(n, rel.vars.has(n) ? names.cols(alias, n) : nullTerm));
  const sql = query.distinct
    ? distinct(names, query, items)
    : select({ items, from: subquery(rel.sql, alias), orderBy: order, limit, offset });
  const vars = new Map(variables.map((n) => [n, rel.vars.get(n) ?? true]));
  return { sql, vars, fixed: keepFixed(vars, rel.fixed) };
}

/** DISTINCT (and REDUCED): sort keys travel with the rows, each group sorted by its first key values. */
function distinct(names: SqlNames, query: SolutionModifiers, items: string[]): string {
  const { rel, alias, variables, order, limit, offset } = query;
  const keys = order.map((key, i) => `${splitOrderKey(key).expression} AS _k${i}`);
  const rows = select({ items: [...items, ...keys], from: subquery(rel.sql, alias) });
  const b = names.alias();
  const columns = (a: string) => variables.flatMap((n) => termSuffixes.map((s) => `${a}.${names.id(n)}_${s}`));
  const grouped = select({
    items: [...columns(b), ...order.map((_, i) => `min(${b}._k${i}) AS _k${i}`)],
    from: subquery(rows, b),
    groupBy: variables.length ? columns(b) : ['1'],
  });
  const c = names.alias();
  const orderBy = order.map((key, i) => `${c}._k${i}${splitOrderKey(key).direction}`);
  return select({ items: columns(c), from: subquery(grouped, c), orderBy, limit, offset });
}
