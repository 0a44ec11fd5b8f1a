import type { AggregateExpression, Expression, Grouping, Ordering, SelectQuery, VariableExpression } from 'sparqljs';
import { compileExpression, type ExpressionScope } from './expressions.js';
import { integerTypes, numberOf, sqlText, toBool, toNum, toTerm, type Value } from './value-sql.js';
import type { TermSql } from './term-sql.js';
import { xsdDecimal, xsdDouble, xsdInteger } from './rdf.js';
import { assignedTwice, hiddenPrefix, keepFixed, termSuffixes, type Rel, type SqlNames } from './relation.js';
import type { Algebra } from './algebra.js';
import { orderKeys, splitOrderKey } from './projection.js';
import { select, subquery } from './sql-select.js';
import { unsupported } from './sparql-errors.js';
import { sqlLiteral } from '../../core/sql-text.js';

/** One item of a SELECT clause: a variable, or an expression bound to one. */
export type SelectItem = VariableExpression | { termType: 'Variable'; value: string };

/** A grouped query's relation, the alias its rows are read through, and its ORDER BY over that alias. */
export interface Grouped {
  rel: Rel;
  alias: string;
  orderSql: string[];
}

/** One aggregate call over the rows of a group, read through `alias`. */
interface AggregateCall {
  agg: AggregateExpression;
  /** `DISTINCT ` or nothing. */
  distinct: string;
  scope: ExpressionScope;
  rel: Rel;
  alias: string;
}

/** An aggregate's SQL, by its lower-case name. */
type AggregateSql = (call: AggregateCall, names: SqlNames) => Value;

/** A term's columns as one text, for counting distinct terms. */
const termKey = (x: TermSql) => `CAST(${x.t} AS VARCHAR) || chr(1) || ${x.d} || chr(1) || ${x.l} || chr(1) || ${x.v}`;

const count: AggregateSql = ({ agg, distinct, scope, rel, alias }, names) => {
  const integer = sqlLiteral(xsdInteger);
  if ((agg.expression as unknown as { termType?: string }).termType === 'Wildcard') {
    const all = [...rel.vars.keys()].map((n) => names.cols(alias, n));
    const key = all.map((x) => `coalesce(${termKey(x)}, '')`).join(` || chr(2) || `);
    const sql = distinct && all.length ? `CAST(count(DISTINCT ${key}) AS DOUBLE)` : 'CAST(count(*) AS DOUBLE)';
    return { kind: 'num', sql, dt: integer };
  }
  const x = toTerm(compileExpression(agg.expression as Expression, scope));
  const arg = distinct ? `DISTINCT (${termKey(x)})` : x.t;
  return { kind: 'num', sql: `CAST(count(${arg}) AS DOUBLE)`, dt: integer };
};

/**
 * A SUM of integers and decimals read from their lexical forms, rounded to the most fractional digits any of them
 * has: the engine adds DOUBLEs, and 1.0 + 2.2 + 3.5 must be 6.7 (xsd:decimal is exact), not 6.700000000000001.
 * With a float or double among them (or a computed number, whose digits are not written), the DOUBLE sum stands.
 */
function decimalSum(value: Value, sum: string): string {
  if (value.kind !== 'term') return sum;
  const exact = [...integerTypes, xsdDecimal].map(sqlLiteral).join(', ');
  const digits = `max(length(regexp_extract(${value.v}, '\\.([0-9]*)', 1)))`;
  return `CASE WHEN bool_and(${value.d} IN (${exact})) THEN round(${sum}, CAST(${digits} AS INTEGER)) ELSE ${sum} END`;
}

/** SUM and AVG: an error in any row is an error; no rows give 0. */
const sumOrAverage: AggregateSql = ({ agg, distinct, scope }) => {
  const name = agg.aggregation.toLowerCase();
  const value = compileExpression(agg.expression as Expression, scope);
  const n = toNum(value);
  const total = `${name}(${distinct}${n.sql})`;
  const result = name === 'sum' ? decimalSum(value, total) : total;
  const sql = `CASE WHEN count(*) = count(${n.sql}) THEN coalesce(${result}, 0) END`;
  const [integer, decimal, double] = [xsdInteger, xsdDecimal, xsdDouble].map(sqlLiteral);
  const known = sqlText(n.dt);
  if (known !== undefined) {
    // One datatype for every input (a mapped column): the result's is known, except over no rows.
    const typed = known === xsdDouble ? double : name === 'avg' || known === xsdDecimal ? decimal : integer;
    const empty = name === 'avg' ? decimal : integer;
    return { kind: 'num', sql, dt: typed === empty ? typed : `CASE WHEN count(*) > 0 THEN ${typed} ELSE ${empty} END` };
  }
  const dt =
    `CASE WHEN bool_or(${n.dt} = ${double}) THEN ${double} WHEN ${name === 'avg' ? 'TRUE' : 'FALSE'} ` +
    `OR bool_or(${n.dt} = ${decimal}) THEN ${decimal} ELSE ${integer} END`;
  return { kind: 'num', sql, dt: `coalesce(${dt}, ${integer})` };
};

/** MIN, MAX and SAMPLE: the term of the row with the least (greatest) key in SPARQL's order. */
const extreme: AggregateSql = ({ agg, scope }) => {
  const x = toTerm(compileExpression(agg.expression as Expression, scope));
  const key = `CASE WHEN ${x.t} IS NOT NULL THEN struct_pack(t := ${x.t}, n := ${numberOf(x)}, s := ${x.v}) END`;
  // The _null forms read every column at the chosen row: plain arg_min skips NULLs, so the number of a MIN that is
  // a blank node (no number) came from another row.
  const fn = agg.aggregation.toLowerCase() === 'max' ? 'arg_max_null' : 'arg_min_null';
  const pick = (column: string) => `${fn}(${column}, ${key})`;
  return { kind: 'term', t: pick(x.t), v: pick(x.v), d: pick(x.d), l: pick(x.l), n: pick(numberOf(x)) };
};

const groupConcat: AggregateSql = ({ agg, distinct, scope }) => {
  const x = toTerm(compileExpression(agg.expression as Expression, scope));
  const separator = sqlLiteral(agg.separator ?? ' ');
  const v = `coalesce(string_agg(${distinct}CASE WHEN ${x.t} = 3 THEN ${x.v} END, ${separator}), '')`;
  return { kind: 'term', t: '3', v, d: "''", l: "''" };
};

const aggregates: Record<string, AggregateSql> = {
  count,
  sum: sumOrAverage,
  avg: sumOrAverage,
  min: extreme,
  max: extreme,
  sample: extreme,
  group_concat: groupConcat,
};

/** GROUP BY with aggregates: one row per group carrying group variables and computed expressions. */
export class Aggregation {
  constructor(
    private readonly names: SqlNames,
    private readonly algebra: Algebra,
  ) {}

  /** The grouped relation of `input` (read through `a`) for a SELECT with GROUP BY or aggregates. */
  aggregate(query: SelectQuery, input: Rel, a: string, projections: SelectItem[]): Grouped {
    const { rel, groupNames } = this.groupVariables(query.group ?? [], input);
    const inputScope = this.algebra.scope(rel, a);
    const computed = new Map<string, TermSql>();
    const groupScope: ExpressionScope = {
      variable: (name) =>
        computed.get(name) ??
        (groupNames.includes(name) && rel.vars.has(name) ? this.names.cols(a, name, rel) : undefined),
      aggregate: (agg) => this.aggregateValue(agg, inputScope, rel, a),
    };
    const grouped = groupNames.filter((n) => rel.vars.has(n));
    const items = grouped.map((n) => this.names.termColumns(n, this.names.cols(a, n, rel)));
    const vars = new Map<string, boolean>(grouped.map((n) => [n, rel.vars.get(n)!]));
    for (const p of projections) {
      if ('expression' in p) {
        const name = p.variable.value;
        if (vars.has(name) || computed.has(name)) throw assignedTwice(name);
        const term = toTerm(compileExpression(p.expression, groupScope));
        computed.set(name, term);
        items.push(this.names.termColumns(name, term));
        vars.set(name, true);
      } else if (!groupNames.includes(p.value)) {
        throw unsupported(`projecting ?${p.value}, which is neither grouped nor aggregated`);
      }
    }
    const having = (query.having ?? []).map((h) => toBool(compileExpression(h, groupScope)));
    const out = this.names.alias();
    const order = this.orderItems(query.order ?? [], groupScope, out);
    // Kind columns fixed to constants group nothing (and a number in GROUP BY would name a position).
    const groupBy = grouped.flatMap((n) =>
      termSuffixes
        .map((s) => this.names.cols(a, n, rel)[s])
        .filter((key): key is string => key !== undefined && !/^\d+$/.test(key) && sqlText(key) === undefined),
    );
    const sql = select({ items: [...items, ...order.items], from: subquery(rel.sql, a), groupBy, having });
    const groupFixed = new Map([...(rel.fixed ?? [])].filter(([name]) => groupNames.includes(name)));
    return { rel: { sql, vars, fixed: keepFixed(vars, groupFixed) }, alias: out, orderSql: order.orderSql };
  }

  /** The GROUP BY variables; an expression is first bound to its own (or a hidden) variable. */
  private groupVariables(groups: Grouping[], input: Rel): { rel: Rel; groupNames: string[] } {
    let rel = input;
    const groupNames: string[] = [];
    for (const g of groups) {
      const expr = g.expression as unknown as { termType?: string; value?: string };
      if (expr.termType === 'Variable' && !g.variable) groupNames.push(expr.value!);
      else {
        const name = g.variable?.value ?? `${hiddenPrefix}g${groupNames.length}`;
        rel = this.algebra.extend(rel, name, g.expression);
        groupNames.push(name);
      }
    }
    return { rel, groupNames };
  }

  /** ORDER BY of a grouped query may use aggregates: its keys are computed inside the grouped SELECT. */
  private orderItems(order: Ordering[], scope: ExpressionScope, out: string) {
    const items: string[] = [];
    const orderSql: string[] = [];
    order.forEach((o, i) => {
      orderKeys(compileExpression(o.expression, scope), o.descending ?? false).forEach((key, j) => {
        const { expression, direction } = splitOrderKey(key);
        items.push(`${expression} AS _o${i}_${j}`);
        orderSql.push(`${out}._o${i}_${j}${direction}`);
      });
    });
    return { items, orderSql };
  }

  /** One aggregate over the rows of a group. */
  private aggregateValue(agg: AggregateExpression, scope: ExpressionScope, rel: Rel, alias: string): Value {
    const name = agg.aggregation.toLowerCase();
    if (!Object.hasOwn(aggregates, name)) throw unsupported(`the aggregate ${name.toUpperCase()}`);
    return aggregates[name]({ agg, distinct: agg.distinct ? 'DISTINCT ' : '', scope, rel, alias }, this.names);
  }
}
