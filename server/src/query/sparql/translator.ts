import type {
  AggregateExpression,
  ConstructQuery,
  Expression,
  Grouping,
  Ordering,
  Pattern,
  Query,
  SelectQuery,
  Triple,
  VariableExpression,
} from 'sparqljs';
import {
  compileExpression,
  numberOf,
  rdfTerm,
  sqlText,
  toBool,
  toNum,
  toTerm,
  type ExpressionScope,
  type Value,
} from './expressions.js';
import type { LogicalTable, MappedTriple, TemplatePart, TermMap } from './r2rml.js';
import {
  sqlEquals,
  termMapSql,
  termsEqual,
  equatedColumns,
  mapColumns,
  templateParts,
  type BoundMap,
  type ColumnTypes,
  type TermSql,
} from './term-sql.js';
import { ColumnClasses, distinctOnProjection, mergeSelfJoins, type Occurrence } from './self-joins.js';
import { columnComparison, conjuncts } from './column-filters.js';
import { unsupported } from './sparql-errors.js';
import { xsdInteger, xsdDecimal, xsdDouble } from './rdf.js';
import { sqlIdent, sqlLiteral } from '../../core/sql-text.js';

/** A solution sequence as SQL: a SELECT with four columns (`<id>_t/_v/_d/_l`) per variable. */
interface Rel {
  sql: string;
  /** variable name -> whether it may be unbound */
  vars: Map<string, boolean>;
  /** Always-bound variables whose term type, datatype and language are the same SQL constants in every row. */
  fixed?: Map<string, Fixed>;
  /** For the one SELECT of a basic graph pattern: that SELECT with other items per variable (the final projection's). */
  branch?: (project: Projection) => string;
  /** The branch ends in LIMIT/OFFSET: it may lose items, but another slice needs a SELECT around it. */
  sliced?: boolean;
}

/** The SELECT items of one variable, from its term map as bound in the FROM clause. */
type Projection = (name: string, bound: BoundMap) => string[];

/** The constant `t`, `d` and `l` expressions of a variable's terms. */
type Fixed = Pick<TermSql, 't' | 'd' | 'l'>;

/** The term kind columns the client need not read because they are the same in every row. */
export interface FixedKind {
  t: number;
  d: string;
  l: string;
}

/** Column types of every logical table, by its FROM text. */
export type TableTypes = (table: LogicalTable) => ColumnTypes;

/** The translation of one query: the SQL and how to read its columns back. */
export interface Translation {
  sql: string;
  /**
   * Projected variables, in order, with their column prefix, the kind when it is the same in every row,
   * and where the value is a template read in parts, its fixed text and the result columns between.
   */
  columns: { name: string; id: string; fixed?: FixedKind; template?: TemplatePart[] }[];
}

/** Most alternative SQL branches one basic graph pattern may unfold into. */
const maxBranches = 256;

const suffixes = ['t', 'v', 'd', 'l', 'n'] as const;
const nullTerm: TermSql = {
  t: 'CAST(NULL AS INTEGER)',
  v: 'CAST(NULL AS VARCHAR)',
  d: 'CAST(NULL AS VARCHAR)',
  l: 'CAST(NULL AS VARCHAR)',
  n: 'CAST(NULL AS DOUBLE)',
};
/** Names the SPARQL grammar cannot produce, for blank nodes of the query acting as hidden variables. */
const hiddenPrefix = ' b';

/** Translates parsed SPARQL into one SQL query over the mapped triples (already saturated). */
export class Translator {
  private readonly ids = new Map<string, string>();
  private aliasCount = 0;

  constructor(
    private readonly triples: readonly MappedTriple[],
    private readonly tableTypes: TableTypes,
  ) {}

  private id(name: string): string {
    let id = this.ids.get(name);
    if (!id) this.ids.set(name, (id = `v${this.ids.size}`));
    return id;
  }

  private alias(): string {
    return `q${this.aliasCount++}`;
  }

  /** A variable's columns under `alias`; constants where `rel` knows its kind, so expressions on it fold. */
  private cols(alias: string | undefined, name: string, rel?: Rel): TermSql {
    const id = this.id(name);
    const p = alias ? `${alias}.` : '';
    const fixed = rel?.vars.get(name) === false ? rel.fixed?.get(name) : undefined;
    return { t: `${p}${id}_t`, v: `${p}${id}_v`, d: `${p}${id}_d`, l: `${p}${id}_l`, n: `${p}${id}_n`, ...fixed };
  }

  /** The projected columns of `names` read through `alias`: only the value where the kind is fixed. */
  private output(rel: Rel, alias: string, names: string[]): Translation {
    const columns = names.map((name) => ({
      name,
      id: this.id(name),
      fixed: rel.vars.get(name) === false ? fixedKind(rel.fixed?.get(name)) : undefined,
    }));
    const items = columns.flatMap(({ id, fixed }) =>
      (fixed ? ['v'] : ['t', 'v', 'd', 'l']).map((k) => `${alias}.${id}_${k}`),
    );
    return { sql: this.selectList(items), columns };
  }

  /**
   * The final SELECT of one basic graph pattern, straight from its tables. A template of a fixed kind is
   * read as its column parts and joined with its fixed text by the client: @duckdb/node-api reads each
   * string longer than 12 bytes with a native call, and rendered IRIs are long where their keys are short.
   */
  private branchOutput(rel: Rel, branch: NonNullable<Rel['branch']>): Translation {
    const read = new Map<string, Translation['columns'][number]>();
    const sql = branch((name, bound) => {
      const id = this.id(name);
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

  /** A variable's term columns, rendered from its bound term map: the projection every relation carries. */
  private readonly termItems: Projection = (name, bound) => [this.select(name, termMapSql(bound))];

  private select(name: string, term: TermSql): string {
    const id = this.id(name);
    // Every relation carries the numeric value column, so numbers are parsed once, where they enter.
    return suffixes.map((s) => `${s === 'n' ? `CAST(${numberOf(term)} AS DOUBLE)` : term[s]} AS ${id}_${s}`).join(', ');
  }

  private selectList(items: string[]): string {
    return items.length ? items.join(', ') : '1 AS _u';
  }

  /** The whole query: SELECT, ASK or CONSTRUCT (whose template is filled in by the caller). */
  translate(query: Query): Translation {
    if (query.type !== 'query') throw unsupported('SPARQL Update');
    if ((query.from?.default?.length ?? 0) + (query.from?.named?.length ?? 0) > 0)
      throw unsupported('FROM / FROM NAMED');
    if (query.queryType === 'DESCRIBE') throw unsupported('DESCRIBE');
    if (query.queryType === 'ASK') {
      const rel = this.group(query.where ?? []);
      return { sql: `SELECT 1 AS _u FROM (${this.withValues(rel, query).sql}) ${this.alias()} LIMIT 1`, columns: [] };
    }
    if (query.queryType === 'CONSTRUCT') {
      const rel = this.withValues(this.group(query.where ?? []), query);
      const a = this.alias();
      const order = this.orderAndSlice(query, rel, a);
      const { sql, columns } = this.output(rel, a, [...rel.vars.keys()]);
      return { sql: `SELECT ${sql} FROM (${rel.sql}) ${a}${order}`, columns };
    }
    const result = this.selectQuery(query as SelectQuery);
    if (result.branch) return this.branchOutput(result, result.branch);
    // The client reads up to four columns per variable; the numeric one stays inside (and is never computed).
    const top = this.alias();
    const { sql, columns } = this.output(result, top, [...result.vars.keys()]);
    return { sql: `SELECT ${sql} FROM (${result.sql}) ${top}`, columns };
  }

  private withValues(rel: Rel, query: Query): Rel {
    return query.values ? this.join(rel, this.values(query.values)) : rel;
  }

  /** ORDER BY, LIMIT and OFFSET over the columns of `alias`. */
  private orderAndSlice(
    query: ConstructQuery & { order?: Ordering[]; limit?: number; offset?: number },
    rel: Rel,
    alias: string,
    scope?: ExpressionScope,
  ): string {
    const s = scope ?? this.scope(rel, alias);
    const keys = (query.order ?? []).flatMap((o: Ordering) =>
      this.orderKeys(compileExpression(o.expression, s), o.descending ?? false),
    );
    let sql = keys.length ? ` ORDER BY ${keys.join(', ')}` : '';
    if (query.limit !== undefined) sql += ` LIMIT ${Number(query.limit)}`;
    if (query.offset !== undefined) sql += ` OFFSET ${Number(query.offset)}`;
    return sql;
  }

  /** SPARQL order of terms: unbound, blank nodes, IRIs, literals; numbers by value, the rest by text. */
  private orderKeys(value: Value, descending: boolean): string[] {
    const dir = descending ? ' DESC NULLS LAST' : ' ASC NULLS FIRST';
    if (value.kind === 'num') return [`${value.sql}${dir}`];
    if (value.kind === 'bool') return [`${value.sql}${dir}`];
    // Keys that are the same for every row (a fixed kind, a non-numeric datatype) order nothing.
    return [value.t, numberOf(value), value.v]
      .filter((key) => !/^(\d+|CAST\(NULL AS DOUBLE\))$/.test(key))
      .map((key) => `${key}${dir}`);
  }

  private scope(rel: Rel, alias: string, extra: Partial<ExpressionScope> = {}): ExpressionScope {
    return {
      variable: (name) => (rel.vars.has(name) ? this.cols(alias, name, rel) : undefined),
      exists: (pattern, negated) => this.exists(pattern, negated, rel, alias),
      ...extra,
    };
  }

  /** A SELECT query (top level or sub-query): grouping, projection, DISTINCT, ORDER BY, LIMIT. */
  private selectQuery(query: SelectQuery): Rel {
    let rel = this.withValues(this.group(query.where ?? []), query);
    const variables = query.variables;
    const star = variables.length === 1 && (variables[0] as { termType?: string }).termType === 'Wildcard';
    const projections = star ? [] : (variables as (VariableExpression | { termType: 'Variable'; value: string })[]);
    const hasAggregate = JSON.stringify([projections, query.having ?? [], query.order ?? []]).includes(
      '"type":"aggregate"',
    );
    let orderSql: string[] | undefined;
    let a = this.alias();

    if (query.group || hasAggregate || query.having) {
      ({ rel, a, orderSql } = this.aggregate(query, rel, a, projections));
    } else {
      for (const p of projections) {
        if ('expression' in p) {
          const name = p.variable.value;
          if (rel.vars.has(name)) throw queryErrorAssigned(name);
          rel = this.extend(rel, name, p.expression);
        }
      }
    }
    const names = star
      ? [...rel.vars.keys()].filter((n) => !n.startsWith(hiddenPrefix))
      : projections.map((p) => ('expression' in p ? p.variable.value : p.value));
    const order =
      orderSql ??
      (query.order ?? []).flatMap((o: Ordering) =>
        this.orderKeys(compileExpression(o.expression, this.scope(rel, a)), o.descending ?? false),
      );
    let slice = '';
    if (query.limit !== undefined) slice += ` LIMIT ${Number(query.limit)}`;
    if (query.offset !== undefined) slice += ` OFFSET ${Number(query.offset)}`;
    const plain =
      !orderSql &&
      !query.distinct &&
      !query.reduced &&
      order.length === 0 &&
      names.length > 0 &&
      new Set(names).size === names.length &&
      names.every((n) => rel.vars.has(n));
    if (plain && rel.branch && !(slice && rel.sliced)) {
      // Some of one pattern's variables, unmodified, with LIMIT/OFFSET: that pattern's SELECT with fewer items and the slice.
      const vars = new Map(names.map((n) => [n, rel.vars.get(n)!]));
      const { branch } = rel;
      const projected: Rel['branch'] = (project) =>
        branch((n, bound) => (vars.has(n) ? project(n, bound) : [])) + slice;
      return {
        sql: projected(this.termItems),
        vars,
        fixed: keepFixed(vars, rel.fixed),
        branch: projected,
        sliced: rel.sliced || slice !== '',
      };
    }
    if (plain && !slice && names.length === rel.vars.size) {
      // Projecting exactly the relation's variables, unmodified, is the relation itself: no SELECT around it to parse and plan.
      const vars = new Map(names.map((n) => [n, rel.vars.get(n)!]));
      return { sql: rel.sql, vars, fixed: keepFixed(vars, rel.fixed) };
    }
    const out = names.map((n) => this.select(n, rel.vars.has(n) ? this.cols(a, n) : nullTerm));
    let sql: string;
    if (query.distinct || query.reduced) {
      // Sort keys travel with the rows: DISTINCT on the projection, each group sorted by its first key values.
      const keys = order.map((k, i) => `${k.replace(/ (ASC|DESC) NULLS (FIRST|LAST)$/, '')} AS _k${i}`);
      const inner = `SELECT ${this.selectList([...out, ...keys])} FROM (${rel.sql}) ${a}`;
      const b = this.alias();
      const outCols = names.flatMap((n) => suffixes.map((s) => `${b}.${this.id(n)}_${s}`));
      const groupCols = outCols.length ? outCols : ['1'];
      const keyAgg = order.map((k, i) => `min(${b}._k${i}) AS _k${i}`);
      const grouped = `SELECT ${this.selectList([...outCols, ...keyAgg])} FROM (${inner}) ${b} GROUP BY ${groupCols.join(', ')}`;
      const c = this.alias();
      const orderBy = order.length
        ? ` ORDER BY ${order.map((k, i) => `${c}._k${i}${k.match(/ (ASC|DESC) NULLS (FIRST|LAST)$/)![0]}`).join(', ')}`
        : '';
      const finalCols = names.flatMap((n) => suffixes.map((s) => `${c}.${this.id(n)}_${s}`));
      sql = `SELECT ${this.selectList(finalCols)} FROM (${grouped}) ${c}${orderBy}${slice}`;
    } else {
      sql = `SELECT ${this.selectList(out)} FROM (${rel.sql}) ${a}${order.length ? ` ORDER BY ${order.join(', ')}` : ''}${slice}`;
    }
    const vars = new Map(names.map((n) => [n, rel.vars.get(n) ?? true]));
    return { sql, vars, fixed: keepFixed(vars, rel.fixed) };
  }

  /** GROUP BY with aggregates: one row per group carrying group variables and computed expressions. */
  private aggregate(
    query: SelectQuery,
    input: Rel,
    a: string,
    projections: (VariableExpression | { termType: 'Variable'; value: string })[],
  ) {
    let rel = input;
    const groupNames: string[] = [];
    for (const g of (query.group ?? []) as Grouping[]) {
      const expr = g.expression as unknown as { termType?: string; value?: string };
      if (expr.termType === 'Variable' && !g.variable) groupNames.push(expr.value!);
      else {
        const name = g.variable?.value ?? `${hiddenPrefix}g${groupNames.length}`;
        rel = this.extend(rel, name, g.expression);
        groupNames.push(name);
      }
    }
    const inputScope = this.scope(rel, a);
    const computed = new Map<string, TermSql>();
    const groupScope: ExpressionScope = {
      variable: (name) =>
        computed.get(name) ?? (groupNames.includes(name) && rel.vars.has(name) ? this.cols(a, name, rel) : undefined),
      aggregate: (agg) => this.aggregateValue(agg, inputScope, rel, a),
    };
    const items: string[] = groupNames.filter((n) => rel.vars.has(n)).map((n) => this.select(n, this.cols(a, n, rel)));
    const vars = new Map<string, boolean>(groupNames.filter((n) => rel.vars.has(n)).map((n) => [n, rel.vars.get(n)!]));
    for (const p of projections) {
      if ('expression' in p) {
        const name = p.variable.value;
        if (vars.has(name) || computed.has(name)) throw queryErrorAssigned(name);
        const term = toTerm(compileExpression(p.expression, groupScope));
        computed.set(name, term);
        items.push(this.select(name, term));
        vars.set(name, true);
      } else if (!groupNames.includes(p.value)) {
        throw unsupported(`projecting ?${p.value}, which is neither grouped nor aggregated`);
      }
    }
    const having = (query.having ?? []).map((h) => toBool(compileExpression(h, groupScope)));
    const out = this.alias();
    // ORDER BY of a grouped query may use aggregates: its keys are computed inside the grouped SELECT.
    const keyItems: string[] = [];
    const orderSql: string[] = [];
    (query.order ?? []).forEach((o: Ordering, i) => {
      this.orderKeys(compileExpression(o.expression, groupScope), o.descending ?? false).forEach((key, j) => {
        const direction = key.match(/ (ASC|DESC) NULLS (FIRST|LAST)$/)![0];
        keyItems.push(`${key.slice(0, -direction.length)} AS _o${i}_${j}`);
        orderSql.push(`${out}._o${i}_${j}${direction}`);
      });
    });
    // Kind columns fixed to constants group nothing (and a number in GROUP BY would name a position).
    const groupBy = groupNames
      .filter((n) => rel.vars.has(n))
      .flatMap((n) =>
        suffixes
          .map((s) => this.cols(a, n, rel)[s])
          .filter((key) => key !== undefined && !/^\d+$/.test(key) && sqlText(key) === undefined),
      );
    const sql = `SELECT ${this.selectList([...items, ...keyItems])} FROM (${rel.sql}) ${a}${groupBy.length ? ` GROUP BY ${groupBy.join(', ')}` : ''}${having.length ? ` HAVING ${having.join(' AND ')}` : ''}`;
    const groupFixed = new Map([...(rel.fixed ?? [])].filter(([name]) => groupNames.includes(name)));
    return { rel: { sql, vars, fixed: keepFixed(vars, groupFixed) }, a: out, orderSql };
  }

  /** One aggregate over the rows of a group. */
  private aggregateValue(agg: AggregateExpression, scope: ExpressionScope, rel: Rel, a: string): Value {
    const name = agg.aggregation.toLowerCase();
    const distinct = agg.distinct ? 'DISTINCT ' : '';
    const expr = agg.expression as unknown as { termType?: string };
    if (name === 'count') {
      if (expr.termType === 'Wildcard') {
        const all = [...rel.vars.keys()].map((n) => this.cols(a, n));
        const key = all
          .map(
            (x) => `coalesce(CAST(${x.t} AS VARCHAR) || chr(1) || ${x.d} || chr(1) || ${x.l} || chr(1) || ${x.v}, '')`,
          )
          .join(` || chr(2) || `);
        return {
          kind: 'num',
          sql: distinct && all.length ? `CAST(count(DISTINCT ${key}) AS DOUBLE)` : 'CAST(count(*) AS DOUBLE)',
          dt: sqlLiteral(xsdInteger),
        };
      }
      const x = toTerm(compileExpression(agg.expression as Expression, scope));
      const arg = distinct
        ? `DISTINCT (CAST(${x.t} AS VARCHAR) || chr(1) || ${x.d} || chr(1) || ${x.l} || chr(1) || ${x.v})`
        : x.t;
      return { kind: 'num', sql: `CAST(count(${arg}) AS DOUBLE)`, dt: sqlLiteral(xsdInteger) };
    }
    const value = compileExpression(agg.expression as Expression, scope);
    if (name === 'sum' || name === 'avg') {
      const n = toNum(value);
      const sql = `CASE WHEN count(*) = count(${n.sql}) THEN coalesce(${name}(${distinct}${n.sql}), 0) END`;
      const known = sqlText(n.dt);
      if (known !== undefined) {
        // One datatype for every input (a mapped column): the result's is known, except over no rows.
        const typed =
          known === xsdDouble ? xsdDouble : name === 'avg' || known === xsdDecimal ? xsdDecimal : xsdInteger;
        const empty = name === 'avg' ? xsdDecimal : xsdInteger;
        return {
          kind: 'num',
          sql,
          dt:
            typed === empty
              ? sqlLiteral(typed)
              : `CASE WHEN count(*) > 0 THEN ${sqlLiteral(typed)} ELSE ${sqlLiteral(empty)} END`,
        };
      }
      const dt = `CASE WHEN bool_or(${n.dt} = ${sqlLiteral(xsdDouble)}) THEN ${sqlLiteral(xsdDouble)} WHEN ${name === 'avg' ? 'TRUE' : 'FALSE'} OR bool_or(${n.dt} = ${sqlLiteral(xsdDecimal)}) THEN ${sqlLiteral(xsdDecimal)} ELSE ${sqlLiteral(xsdInteger)} END`;
      return { kind: 'num', sql, dt: `coalesce(${dt}, ${sqlLiteral(xsdInteger)})` };
    }
    if (name === 'min' || name === 'max' || name === 'sample') {
      const x = toTerm(value);
      const key = `CASE WHEN ${x.t} IS NOT NULL THEN struct_pack(t := ${x.t}, n := ${numberOf(x)}, s := ${x.v}) END`;
      const fn = name === 'max' ? 'arg_max' : 'arg_min';
      return {
        kind: 'term',
        t: `${fn}(${x.t}, ${key})`,
        v: `${fn}(${x.v}, ${key})`,
        d: `${fn}(${x.d}, ${key})`,
        l: `${fn}(${x.l}, ${key})`,
        n: `${fn}(${numberOf(x)}, ${key})`,
      };
    }
    if (name === 'group_concat') {
      const x = toTerm(value);
      const separator = agg.separator ?? ' ';
      const v = `coalesce(string_agg(${distinct}CASE WHEN ${x.t} = 3 THEN ${x.v} END, ${sqlLiteral(separator)}), '')`;
      return { kind: 'term', t: '3', v, d: "''", l: "''" };
    }
    throw unsupported(`the aggregate ${name.toUpperCase()}`);
  }

  /** A group graph pattern (SPARQL 1.1 §18.2.2): joins, OPTIONAL, MINUS, BIND, then the group's filters. */
  private group(patterns: Pattern[]): Rel {
    // A group of one basic graph pattern and filters: the filters go into the pattern's SQL, before deduplication.
    const bgps = patterns.filter((p) => p.type === 'bgp');
    const pushable = patterns.filter(
      (p) => p.type === 'filter' && !/"operator":"(not)?exists"/.test(JSON.stringify(p)),
    );
    if (bgps.length === 1 && pushable.length > 0 && bgps.length + pushable.length === patterns.length) {
      return this.bgp(
        (bgps[0] as { triples: Triple[] }).triples,
        pushable.map((p) => (p as { expression: Expression }).expression),
      );
    }
    let rel: Rel = { sql: 'SELECT 1 AS _u', vars: new Map() };
    const filters: Expression[] = [];
    for (const pattern of patterns) {
      switch (pattern.type) {
        case 'filter':
          filters.push(pattern.expression);
          break;
        case 'optional': {
          const inner = pattern.patterns;
          const innerFilters = inner
            .filter((p) => p.type === 'filter')
            .map((p) => (p as { expression: Expression }).expression);
          const right = this.group(inner.filter((p) => p.type !== 'filter'));
          rel = this.leftJoin(rel, right, innerFilters);
          break;
        }
        case 'minus':
          rel = this.minus(rel, this.group(pattern.patterns));
          break;
        case 'bind':
          if (rel.vars.has(pattern.variable.value)) throw queryErrorAssigned(pattern.variable.value);
          rel = this.extend(rel, pattern.variable.value, pattern.expression);
          break;
        default:
          rel = this.join(rel, this.pattern(pattern));
      }
    }
    for (const f of filters) rel = this.filter(rel, f);
    return rel;
  }

  private pattern(pattern: Pattern): Rel {
    switch (pattern.type) {
      case 'bgp':
        return this.bgp(pattern.triples);
      case 'group':
        return this.group(pattern.patterns);
      case 'union':
        return pattern.patterns.map((p) => this.pattern(p)).reduce((x, y) => this.union(x, y));
      case 'values':
        return this.values(pattern.values);
      case 'query':
        if (pattern.queryType !== 'SELECT') throw unsupported(`a ${pattern.queryType} sub-query`);
        return this.selectQuery(pattern as SelectQuery);
      case 'graph':
        throw unsupported('GRAPH (named graph queries)');
      case 'service':
        throw unsupported('SERVICE (federated queries)');
      case 'bind':
      case 'filter':
      case 'optional':
      case 'minus':
        return this.group([pattern]);
      default:
        throw unsupported(`the pattern "${(pattern as { type: string }).type}"`);
    }
  }

  /** VALUES rows as an inline table. */
  private values(rows: Record<string, unknown>[]): Rel {
    const names = [...new Set(rows.flatMap((r) => Object.keys(r)))].map((k) => k.replace(/^[?$]/, ''));
    const nullable = new Map(names.map((n) => [n, false]));
    const lines = rows.map((row) =>
      names
        .map((n) => {
          const node = (row[`?${n}`] ?? row[n]) as Parameters<typeof rdfTerm>[0] | undefined;
          if (!node) {
            nullable.set(n, true);
            return this.select(n, nullTerm);
          }
          const term = toTerm(compileExpression(node as unknown as Expression, { variable: () => undefined }));
          return this.select(n, {
            t: `CAST(${term.t} AS INTEGER)`,
            v: `CAST(${term.v} AS VARCHAR)`,
            d: `CAST(${term.d} AS VARCHAR)`,
            l: `CAST(${term.l} AS VARCHAR)`,
            n: `CAST(${numberOf(term)} AS DOUBLE)`,
          });
        })
        .join(', '),
    );
    if (lines.length === 0)
      return {
        sql: `SELECT ${this.selectList(names.map((n) => this.select(n, nullTerm)))} WHERE FALSE`,
        vars: nullable,
      };
    return { sql: lines.map((l) => `SELECT ${l || '1 AS _u'}`).join(' UNION ALL '), vars: nullable };
  }

  /** Columns of the union of two relations' variables, taking shared ones from both. */
  private joinOutput(
    x: Rel,
    y: Rel,
    ax: string,
    ay: string,
    left: boolean,
  ): { items: string[]; vars: Map<string, boolean>; on: string[] } {
    const items: string[] = [];
    const on: string[] = [];
    const vars = new Map<string, boolean>();
    for (const [name, nx] of x.vars) {
      const ny = y.vars.get(name);
      if (ny === undefined) {
        items.push(this.select(name, this.cols(ax, name)));
        vars.set(name, nx);
        continue;
      }
      const cx = this.cols(ax, name);
      const cy = this.cols(ay, name);
      const equal = `${cx.v} = ${cy.v} AND ${cx.t} = ${cy.t} AND ${cx.d} = ${cy.d} AND ${cx.l} = ${cy.l}`;
      on.push(nx || ny ? `(${cx.t} IS NULL OR ${cy.t} IS NULL OR (${equal}))` : equal);
      if (nx || ny) {
        const merged: TermSql = {
          t: `coalesce(${cx.t}, ${cy.t})`,
          v: `coalesce(${cx.v}, ${cy.v})`,
          d: `coalesce(${cx.d}, ${cy.d})`,
          l: `coalesce(${cx.l}, ${cy.l})`,
          n: `coalesce(${cx.n}, ${cy.n})`,
        };
        items.push(this.select(name, merged));
      } else items.push(this.select(name, cx));
      vars.set(name, nx && (ny || left));
    }
    for (const [name, ny] of y.vars) {
      if (x.vars.has(name)) continue;
      items.push(this.select(name, this.cols(ay, name)));
      vars.set(name, ny || left);
    }
    return { items, vars, on };
  }

  private join(x: Rel, y: Rel): Rel {
    if (x.vars.size === 0 && x.sql === 'SELECT 1 AS _u') return y;
    if (y.vars.size === 0 && y.sql === 'SELECT 1 AS _u') return x;
    const ax = this.alias();
    const ay = this.alias();
    const { items, vars, on } = this.joinOutput(x, y, ax, ay, false);
    const joinSql = on.length ? `JOIN (${y.sql}) ${ay} ON ${on.join(' AND ')}` : `CROSS JOIN (${y.sql}) ${ay}`;
    // An inner join matches equal terms: a kind fixed on either side is the kind of the output.
    return {
      sql: `SELECT ${this.selectList(items)} FROM (${x.sql}) ${ax} ${joinSql}`,
      vars,
      fixed: keepFixed(vars, x.fixed, y.fixed),
    };
  }

  private leftJoin(x: Rel, y: Rel, filters: Expression[]): Rel {
    const ax = this.alias();
    const ay = this.alias();
    const { items, vars, on } = this.joinOutput(x, y, ax, ay, true);
    // The OPTIONAL's filter sees the variables of both sides, as the joined solution would bind them.
    const both: ExpressionScope = {
      variable: (name) => {
        const inX = x.vars.has(name);
        const inY = y.vars.has(name);
        if (inX && inY) {
          const cx = this.cols(ax, name);
          const cy = this.cols(ay, name);
          return {
            t: `coalesce(${cx.t}, ${cy.t})`,
            v: `coalesce(${cx.v}, ${cy.v})`,
            d: `coalesce(${cx.d}, ${cy.d})`,
            l: `coalesce(${cx.l}, ${cy.l})`,
            n: `coalesce(${cx.n}, ${cy.n})`,
          };
        }
        return inX ? this.cols(ax, name) : inY ? this.cols(ay, name) : undefined;
      },
    };
    const conditions = [...on, ...filters.map((f) => `coalesce(${toBool(compileExpression(f, both))}, FALSE)`)];
    return {
      sql: `SELECT ${this.selectList(items)} FROM (${x.sql}) ${ax} LEFT JOIN (${y.sql}) ${ay} ON ${conditions.length ? conditions.join(' AND ') : 'TRUE'}`,
      vars,
      fixed: keepFixed(vars, x.fixed),
    };
  }

  private union(x: Rel, y: Rel): Rel {
    const names = [...new Set([...x.vars.keys(), ...y.vars.keys()])];
    const vars = new Map(names.map((n) => [n, (x.vars.get(n) ?? true) || (y.vars.get(n) ?? true)]));
    const side = (r: Rel) => {
      const a = this.alias();
      return `SELECT ${this.selectList(names.map((n) => this.select(n, r.vars.has(n) ? this.cols(a, n) : nullTerm)))} FROM (${r.sql}) ${a}`;
    };
    const same = new Map(
      [...(x.fixed ?? [])].filter(([name, k]) => {
        const other = y.fixed?.get(name);
        return other && other.t === k.t && other.d === k.d && other.l === k.l;
      }),
    );
    return { sql: `${side(x)} UNION ALL ${side(y)}`, vars, fixed: keepFixed(vars, same) };
  }

  private minus(x: Rel, y: Rel): Rel {
    const shared = [...x.vars.keys()].filter((n) => y.vars.has(n));
    if (shared.length === 0) return x;
    const ax = this.alias();
    const ay = this.alias();
    const compatible = shared.map((n) => {
      const cx = this.cols(ax, n);
      const cy = this.cols(ay, n);
      return `(${cx.t} IS NULL OR ${cy.t} IS NULL OR (${cx.v} = ${cy.v} AND ${cx.t} = ${cy.t} AND ${cx.d} = ${cy.d} AND ${cx.l} = ${cy.l}))`;
    });
    const overlap = shared
      .map((n) => `(${this.cols(ax, n).t} IS NOT NULL AND ${this.cols(ay, n).t} IS NOT NULL)`)
      .join(' OR ');
    const items = [...x.vars.keys()].map((n) => this.select(n, this.cols(ax, n)));
    return {
      sql: `SELECT ${this.selectList(items)} FROM (${x.sql}) ${ax} WHERE NOT EXISTS (SELECT 1 FROM (${y.sql}) ${ay} WHERE ${compatible.join(' AND ')} AND (${overlap}))`,
      vars: x.vars,
      fixed: x.fixed,
    };
  }

  private extend(x: Rel, name: string, expression: Expression): Rel {
    const a = this.alias();
    const term = toTerm(compileExpression(expression, this.scope(x, a)));
    const items = [...x.vars.keys()].map((n) => this.select(n, this.cols(a, n)));
    items.push(this.select(name, term));
    return {
      sql: `SELECT ${items.join(', ')} FROM (${x.sql}) ${a}`,
      vars: new Map([...x.vars, [name, true]]),
      fixed: x.fixed,
    };
  }

  private filter(x: Rel, expression: Expression): Rel {
    const a = this.alias();
    const condition = toBool(compileExpression(expression, this.scope(x, a)));
    const items = [...x.vars.keys()].map((n) => this.select(n, this.cols(a, n)));
    return {
      sql: `SELECT ${this.selectList(items)} FROM (${x.sql}) ${a} WHERE ${condition}`,
      vars: x.vars,
      fixed: x.fixed,
    };
  }

  /** EXISTS { pattern } as a correlated sub-query on the variables the outer row binds. */
  private exists(pattern: Pattern, negated: boolean, outer: Rel, outerAlias: string): string {
    const inner = pattern.type === 'group' ? this.group(pattern.patterns) : this.pattern(pattern);
    const ai = this.alias();
    const conditions = [...inner.vars.keys()]
      .filter((n) => outer.vars.has(n))
      .map((n) => {
        const o = this.cols(outerAlias, n);
        const i = this.cols(ai, n);
        return `(${o.t} IS NULL OR ${i.t} IS NULL OR (${o.v} = ${i.v} AND ${o.t} = ${i.t} AND ${o.d} = ${i.d} AND ${o.l} = ${i.l}))`;
      });
    return `(${negated ? 'NOT ' : ''}EXISTS (SELECT 1 FROM (${inner.sql}) ${ai}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}))`;
  }

  /** A pattern position: a variable name or a constant term map. */
  private position(
    node: Triple['subject'] | Triple['predicate'] | Triple['object'],
  ): { variable: string } | { constant: TermMap } {
    const n = node as { termType: string; value: string };
    if (n.termType === 'Variable') return { variable: n.value };
    if (n.termType === 'BlankNode') return { variable: `${hiddenPrefix}${n.value}` };
    if (n.termType === 'Quad') throw unsupported('RDF-star quoted triples');
    if ('type' in (node as object) && (node as { type?: string }).type === 'path') throw unsupported('property paths');
    return { constant: { kind: 'constant', term: rdfTerm(n as never)! } };
  }

  /**
   * A basic graph pattern: every combination of mapped triples that can produce its triple patterns
   * becomes one SELECT over the joined source tables; their set union is the pattern's answer.
   */
  private bgp(patterns: Triple[], filters: Expression[] = []): Rel {
    const positions = patterns.map(
      (p) => [this.position(p.subject), this.position(p.predicate), this.position(p.object)] as const,
    );
    const names = [...new Set(positions.flatMap((ps) => ps.flatMap((p) => ('variable' in p ? [p.variable] : []))))];
    const vars = new Map(names.map((n) => [n, false]));
    const branches: string[] = [];
    // Each branch's SELECT for other items, where its rows do not depend on them (no DISTINCT on the terms).
    const reprojections: Rel['branch'][] = [];
    // The kind of each variable's terms, while every branch so far agrees on it.
    const kinds = new Map<string, Fixed | null>();
    const chosen: { triple: MappedTriple; alias: string }[] = [];
    const candidates = positions.map(([, predicate]) =>
      this.triples.filter(
        (t) =>
          !('constant' in predicate) ||
          termsEqual(
            { map: predicate.constant, alias: '', types: () => undefined },
            { map: t.predicate, alias: '', types: () => undefined },
          ) !== false,
      ),
    );

    /**
     * The FROM and WHERE clauses of the chosen mapped triples, reading each table reference through
     * `at(alias)` (self-join elimination maps replaced aliases); `facts` learns what joins them.
     */
    const render = (at: (alias: string) => string, facts?: { occurrences: Occurrence[]; classes: ColumnClasses }) => {
      const from: string[] = [];
      const where: string[] = [];
      const bindings = new Map<string, BoundMap>();
      let possible = true;
      const occurrence = (alias: string, table: LogicalTable, types: ColumnTypes) => {
        if (at(alias) === alias) from.push(`${table.from} ${alias}`);
        const o: Occurrence = { alias, table, types, used: new Set() };
        facts?.occurrences.push(o);
        return o;
      };
      const equal = (a: BoundMap, b: BoundMap) => {
        for (const [ca, cb] of facts ? equatedColumns(a, b) : []) facts!.classes.union([a.alias, ca], [b.alias, cb]);
        return termsEqual(a, b);
      };
      chosen.forEach(({ triple, alias }, i) => {
        const childTypes = this.tableTypes(triple.child);
        const parentTypes = triple.parent ? this.tableTypes(triple.parent.table) : childTypes;
        const child = occurrence(`${alias}c`, triple.child, childTypes);
        const parent = triple.parent ? occurrence(`${alias}p`, triple.parent.table, parentTypes) : child;
        for (const j of triple.parent?.joins ?? []) {
          where.push(sqlEquals(`${at(child.alias)}.${sqlIdent(j.child)}`, `${at(parent.alias)}.${sqlIdent(j.parent)}`));
          child.used.add(j.child);
          parent.used.add(j.parent);
          if (childTypes(j.child) !== undefined && childTypes(j.child) === parentTypes(j.parent))
            facts?.classes.union([child.alias, j.child], [parent.alias, j.parent]);
        }
        const bound = (map: TermMap, onParent: boolean): BoundMap => {
          const o = onParent ? parent : child;
          for (const column of mapColumns(map)) o.used.add(column);
          return { map, alias: at(o.alias), types: o.types };
        };
        const maps = [
          bound(triple.subject, triple.subjectOnParent),
          bound(triple.predicate, false),
          bound(triple.object, triple.objectOnParent),
        ];
        for (const m of maps)
          for (const column of mapColumns(m.map)) where.push(`${m.alias}.${sqlIdent(column)} IS NOT NULL`);
        positions[i].forEach((position, k) => {
          const m = maps[k];
          const previous =
            'constant' in position
              ? { map: position.constant, alias: '', types: () => undefined }
              : bindings.get(position.variable);
          if (!previous) {
            bindings.set((position as { variable: string }).variable, m);
            return;
          }
          const condition = equal(previous, m);
          if (condition === false) possible = false;
          else if (condition !== 'TRUE') where.push(condition);
        });
      });
      return { from, where, bindings, possible };
    };

    const emit = () => {
      const facts = { occurrences: [] as Occurrence[], classes: new ColumnClasses() };
      let clauses = render((alias) => alias, facts);
      if (!clauses.possible) return;
      const merged = mergeSelfJoins(facts.occurrences, facts.classes);
      if (merged.size > 0) clauses = render((alias) => merged.get(alias) ?? alias);
      const { from, where, bindings } = clauses;
      for (const name of names) {
        const { t, d, l } = termMapSql(bindings.get(name)!);
        const known = kinds.get(name);
        if (known === undefined) kinds.set(name, { t, d, l });
        else if (known && (known.t !== t || known.d !== d || known.l !== l)) kinds.set(name, null);
      }
      const rowScope: ExpressionScope = {
        variable: (name) => (bindings.has(name) ? termMapSql(bindings.get(name)!) : undefined),
      };
      for (const f of filters.flatMap(conjuncts))
        where.push(
          columnComparison(f, (name) => bindings.get(name)) ??
            `coalesce(${toBool(compileExpression(f, rowScope))}, FALSE)`,
        );
      const body = `FROM ${from.join(', ')}${where.length ? ` WHERE ${[...new Set(where)].join(' AND ')}` : ''}`;
      const bound = names.map((n) => bindings.get(n)!);
      let reproject: Rel['branch'];
      if (bound.every(injective)) {
        const projected = bound.flatMap((b) => mapColumns(b.map).map((column) => [b.alias, column] as const));
        const kept = facts.occurrences.filter((o) => !merged.has(o.alias));
        // Rows unique on a key of every table are already a set: the terms are rendered from them directly.
        if (distinctOnProjection(kept, facts.classes, projected))
          reproject = (project) => `SELECT ${this.selectList(names.flatMap((n, i) => project(n, bound[i])))} ${body}`;
        else {
          // Distinct source values give distinct terms: deduplicate the narrow source columns, then render the terms.
          const raw = new Map<string, string>();
          const renamed = bound.map((b) =>
            renameColumns(b, (column) => {
              const name = `${b.alias}__${column}`;
              raw.set(name, `${b.alias}.${sqlIdent(column)} AS ${sqlIdent(name)}`);
              return name;
            }),
          );
          const r = this.alias();
          reproject = (project) =>
            `SELECT ${this.selectList(names.flatMap((n, i) => project(n, { ...renamed[i], alias: r })))} FROM (SELECT DISTINCT ${this.selectList([...raw.values()])} ${body}) ${r}`;
        }
      }
      branches.push(
        reproject
          ? reproject(this.termItems)
          : `SELECT DISTINCT ${this.selectList(names.flatMap((n, i) => this.termItems(n, bound[i])))} ${body}`,
      );
      reprojections.push(reproject);
      if (branches.length > maxBranches)
        throw unsupported(
          `a basic graph pattern that unfolds into more than ${maxBranches} alternatives over the mapping`,
        );
    };
    const choose = (i: number) => {
      if (i === patterns.length) return emit();
      for (const triple of candidates[i]) {
        chosen.push({ triple, alias: `t${i}` });
        choose(i + 1);
        chosen.pop();
      }
    };
    if (patterns.length === 0) {
      const unit: Rel = { sql: 'SELECT 1 AS _u', vars };
      return filters.reduce((rel, f) => this.filter(rel, f), unit);
    }
    choose(0);
    if (branches.length === 0)
      return { sql: `SELECT ${this.selectList(names.map((n) => this.select(n, nullTerm)))} WHERE FALSE`, vars };
    // The graph is a set: a solution found through several mappings (or duplicate rows) counts once.
    const fixed = new Map([...kinds].filter((entry): entry is [string, Fixed] => entry[1] !== null));
    return {
      sql: branches.length === 1 ? branches[0] : branches.join(' UNION '),
      vars,
      fixed,
      branch: branches.length === 1 ? reprojections[0] : undefined,
    };
  }
}

/** The fixed kinds, from the first source that knows one, of the variables `vars` says are always bound. */
function keepFixed(vars: Map<string, boolean>, ...sources: (Map<string, Fixed> | undefined)[]): Map<string, Fixed> {
  const out = new Map<string, Fixed>();
  for (const [name, nullable] of vars) {
    if (nullable) continue;
    const found = sources.map((source) => source?.get(name)).find(Boolean);
    if (found) out.set(name, found);
  }
  return out;
}

/** A fixed kind as values, when its expressions are plain SQL constants. */
function fixedKind(fixed: Fixed | undefined): FixedKind | undefined {
  if (!fixed || !/^\d+$/.test(fixed.t)) return undefined;
  const d = sqlText(fixed.d);
  const l = sqlText(fixed.l);
  return d === undefined || l === undefined ? undefined : { t: Number(fixed.t), d, l };
}

/** Whether different source values of a bound term map always give different terms. */
function injective(bound: BoundMap): boolean {
  const { map } = bound;
  if (map.kind === 'constant') return true;
  if (map.base) return false;
  const timestamp = (column: string) => /^TIMESTAMP/i.test(bound.types(column) ?? '');
  if (map.kind === 'column') return !timestamp(map.column);
  const columns = map.parts.filter((p): p is { column: string } => 'column' in p);
  if (columns.some((c) => timestamp(c.column))) return false;
  if (columns.length <= 1) return true;
  // Several columns: IRI-safe encoding keeps values apart only where fixed text with a reserved character separates them.
  return (
    map.termType === 'iri' &&
    map.parts.every((p, i) =>
      'text' in p
        ? i === 0 || i === map.parts.length - 1 || /[^A-Za-z0-9\-._~]/.test(p.text)
        : !('column' in (map.parts[i + 1] ?? {})),
    )
  );
}

/** The same term map reading renamed columns (of a sub-query), with the original column types. */
function renameColumns(bound: BoundMap, rename: (column: string) => string): BoundMap {
  const { map } = bound;
  const types = new Map<string, string | undefined>();
  const column = (c: string) => {
    const name = rename(c);
    types.set(name.toLowerCase(), bound.types(c));
    return name;
  };
  const renamed: TermMap =
    map.kind === 'column'
      ? { ...map, column: column(map.column) }
      : map.kind === 'template'
        ? { ...map, parts: map.parts.map((p) => ('column' in p ? { column: column(p.column) } : p)) }
        : map;
  return { map: renamed, alias: bound.alias, types: (c) => types.get(c.toLowerCase()) };
}

function queryErrorAssigned(name: string) {
  return unsupported(`assigning ?${name}, which is already in scope (not allowed by SPARQL)`);
}
